// Sums the runners' JSON results into the one closing line CI reads: `tests: N passed, N failed`.
// A step that failed without producing results (install, build, lint, a crashed runner) counts as one
// failed test, so a broken pipeline can never print "0 failed".
'use strict';
const fs = require('fs');
const path = require('path');

const [dir, failedStepCount, failedStepNames, totalSeconds] = process.argv.slice(2);
let passed = 0;
let failed = 0;

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
	} catch {
		return undefined;
	}
}

const jest = readJson('jest.json');
if (jest) {
	passed += jest.numPassedTests;
	// Suites that failed to run at all (syntax errors, crashed setup) have no failed *tests*: count them.
	failed += jest.numFailedTests + (jest.numRuntimeErrorTestSuites || 0);
}
// The runners that write `{passed, failed}` (test/e2e's report format, and the scanner's), each with the name of the
// .ci/run step that runs it: the real-n8n suite, queue mode, the SSRF run, the editor in a browser, n8n's scanner.
const COUNTED = [
	['e2e.json', 'e2e (real'],
	['e2e-queue.json', 'e2e queue'],
	['e2e-ssrf.json', 'e2e SSRF'],
	['ui.json', 'editor in a browser'],
	['scan.json', 'scanner'],
].map(([file, step]) => ({ step, results: readJson(file) }));
for (const { results } of COUNTED) {
	if (!results) continue;
	passed += results.passed;
	failed += results.failed;
}

/**
 * Each step's time, in the order the steps began, with when it began (steps side by side overlap), then the whole
 * run's wall time: where CI's minutes go, without reading the log.
 */
function printStepTimes(file, total) {
	let rows;
	try {
		rows = fs
			.readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [name, seconds, status, began] = line.split('\t');
				return { name, seconds: Number(seconds), status, began: Number(began) };
			});
	} catch {
		return;
	}
	rows.sort((a, b) => a.began - b.began);
	const width = Math.max(...rows.map((r) => r.name.length));
	const clock = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
	console.log('step times (began at m:ss; steps that began before the one above ended ran side by side):');
	for (const r of rows) {
		console.log(`  ${r.name.padEnd(width)}  ${String(r.seconds).padStart(5)} s  at ${clock(r.began).padStart(5)}${r.status === 'ok' ? '' : `  ${r.status}`}`);
	}
	if (Number.isFinite(total)) console.log(`  ${'total (wall)'.padEnd(width)}  ${String(total).padStart(5)} s  = ${clock(total)}`);
}

// Failed steps whose failures are not already inside a result file.
const stepFailures = Number(failedStepCount) || 0;
let unaccounted = stepFailures;
if (stepFailures > 0) {
	const names = failedStepNames || '';
	if (jest && names.includes('npm test') && jest.numFailedTests + (jest.numRuntimeErrorTestSuites || 0) > 0) unaccounted--;
	for (const { step, results } of COUNTED) if (results && names.includes(step) && results.failed > 0) unaccounted--;
	console.log(`failed steps: ${names}`);
}
failed += Math.max(unaccounted, 0);

printStepTimes(path.join(dir, 'steps.tsv'), Number(totalSeconds));
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
