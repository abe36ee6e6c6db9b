// The e2e suite reads `n8n execute --rawOutput`'s printed run (test/e2e/lib/n8n-cli.ts): on a loaded machine another
// part of n8n may log a line inside it (CI once read "no node ran" from a run whose nodes all ran).
import { parseRun } from '../e2e/lib/n8n-cli';

const run = { finished: true, data: { resultData: { runData: { 'Create items': [{ data: { main: [[{ json: { a: '{\n}' } }]] } }] } } } };
const printed = JSON.stringify(run, null, 2).split('\n');

it('reads the printed run among log lines', () => {
	expect(parseRun(['Starting execution', ...printed, 'Execution finished'].join('\n'))).toEqual(run);
});

it('reads it when an unindented log line landed inside it', () => {
	const interleaved = [...printed.slice(0, 5), 'Task runner: 1 task done', ...printed.slice(5)];
	expect(parseRun(interleaved.join('\n'))).toEqual(run);
});

it('none printed: undefined', () => {
	expect(parseRun('Execution was not found')).toBeUndefined();
});
