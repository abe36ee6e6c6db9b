// n8n-workflow runs the regular expressions n8n-core checks parameters with (a resource locator's, for one) in a
// node:vm limited to 250 ms of wall time. On CI's two cores, shared by n8n installs, n8n instances and jest, a
// trivial expression has missed that limit ("Regular expression execution timed out", a Create or Update run of the
// integration suite): that says nothing about the package. The harness gives them the same kind of vm with a limit
// of seconds, which still stops a runaway expression with n8n's own message.
import vm from 'node:vm';

import { setSafeRegexEngine, type RegexEngine } from 'n8n-workflow';

const PATIENT_LIMIT_MS = 10_000;
const TIMED_OUT = 'Regular expression execution timed out';

interface Slots {
	pattern: string;
	flags: string;
	input: string;
	replacement: string;
	result: unknown;
}

/** `limitMs`: the wall time one expression gets (n8n-workflow's own engine: 250 ms). */
export function installPatientRegexEngine(limitMs = PATIENT_LIMIT_MS): void {
	const slots: Slots = { pattern: '', flags: '', input: '', replacement: '', result: undefined };
	const context = vm.createContext(slots);
	const script = (code: string) => new vm.Script(`result = ${code}`);
	const scripts = {
		exec: script('new RegExp(pattern, flags).exec(input)'),
		test: script('new RegExp(pattern, flags).test(input)'),
		replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: script('input.split(new RegExp(pattern, flags))'),
	};
	const run = <T>(which: keyof typeof scripts, pattern: string, input: string, flags = '', replacement = ''): T => {
		Object.assign(context, { pattern, input, flags, replacement, result: undefined });
		try {
			scripts[which].runInContext(context, { timeout: limitMs });
		} catch (error) {
			if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error(TIMED_OUT);
			throw error;
		}
		return (context as Slots).result as T;
	};
	const engine: RegexEngine = {
		exec: (pattern, input, flags) => run('exec', pattern, input, flags),
		test: (pattern, input, flags) => run('test', pattern, input, flags),
		replace: (pattern, input, flags, replacement) => run('replace', pattern, input, flags, replacement),
		// matchAll needs the g flag, as n8n-workflow's own engine adds it.
		matchAll: (pattern, input, flags = '') => run('matchAll', pattern, input, flags.includes('g') ? flags : `${flags}g`),
		split: (pattern, input, flags) => run('split', pattern, input, flags),
	};
	setSafeRegexEngine(engine);
}
