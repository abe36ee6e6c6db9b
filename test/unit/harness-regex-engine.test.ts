// The harness's regular expressions (regex-engine.ts): seconds instead of n8n-workflow's 250 ms, so a starved CI
// machine does not fail a run on a parameter check, with n8n's results otherwise.
import { resetSafeRegexEngine, safeRegex } from 'n8n-workflow';

import { installPatientRegexEngine } from '../harness/regex-engine';

afterAll(() => resetSafeRegexEngine());

describe('the harness regex engine', () => {
	beforeAll(() => installPatientRegexEngine());

	it("lets an expression run past 250 ms (about a second here; n8n-workflow's own engine gives up at 250 ms) and answers it", () => {
		const started = Date.now();
		expect(safeRegex.test('^(a+)+$', `${'a'.repeat(24)}!`)).toBe(false);
		expect(Date.now() - started).toBeGreaterThan(250);
	});

	it('answers as JavaScript does: exec, test, replace, matchAll (g added), split', () => {
		expect(safeRegex.exec('(\\d+)-(\\d+)', 'sku 12-34', '')?.slice(1)).toEqual(['12', '34']);
		expect(safeRegex.test('^cons_', 'cons_12345')).toBe(true);
		expect(safeRegex.replace('\\s+', ' a  b ', 'g', '_')).toBe('_a_b_');
		expect(safeRegex.matchAll('\\d', 'a1b2').map((m) => m[0])).toEqual(['1', '2']);
		expect(safeRegex.split(',\\s*', 'a, b,c')).toEqual(['a', 'b', 'c']);
	});
});
