// The harness's regular expressions (regex-engine.ts): seconds instead of n8n-workflow's 250 ms, so a starved CI
// machine does not fail a run on a parameter check, with n8n's answers and its message for a runaway expression.
import { resetSafeRegexEngine, safeRegex } from 'n8n-workflow';

import { installPatientRegexEngine } from '../harness/regex-engine';

/** About a second in a vm here: catastrophic backtracking on 24 characters. */
const SLOW = ['^(a+)+$', `${'a'.repeat(24)}!`] as const;

afterAll(() => resetSafeRegexEngine());

describe('the harness regex engine', () => {
	it('answers an expression that takes longer than a short limit would allow', () => {
		installPatientRegexEngine();
		expect(safeRegex.test(...SLOW)).toBe(false);
	});

	it("stops a runaway expression at its limit with n8n's message", () => {
		installPatientRegexEngine(20);
		expect(() => safeRegex.test(...SLOW)).toThrow('Regular expression execution timed out');
	});

	it('answers as JavaScript does: exec, test, replace, matchAll (g added), split', () => {
		installPatientRegexEngine();
		expect(safeRegex.exec('(\\d+)-(\\d+)', 'sku 12-34', '')?.slice(1)).toEqual(['12', '34']);
		expect(safeRegex.test('^cons_', 'cons_12345')).toBe(true);
		expect(safeRegex.replace('\\s+', ' a  b ', 'g', '_')).toBe('_a_b_');
		expect(safeRegex.matchAll('\\d', 'a1b2').map((m) => m[0])).toEqual(['1', '2']);
		expect(safeRegex.split(',\\s*', 'a, b,c')).toEqual(['a', 'b', 'c']);
	});
});
