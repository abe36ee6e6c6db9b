// Sums the runners' JSON results into the one closing line CI reads: `tests: N passed, N failed`.
// A step that failed without producing results (install, build, lint, a crashed runner) counts as one
// failed test, so a broken pipeline can never print "0 failed".
'use strict';
const fs = require('fs');
const path = require('path');

const [dir, failedStepCount, failedStepNames] = process.argv.slice(2);
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
const e2e = readJson('e2e.json');
if (e2e) {
	passed += e2e.passed;
	failed += e2e.failed;
}
// The queue-mode e2e suite (test/e2e/queue), same format as the e2e results.
const e2eQueue = readJson('e2e-queue.json');
if (e2eQueue) {
	passed += e2eQueue.passed;
	failed += e2eQueue.failed;
}
// The editor in a browser (test/ui), same format as the e2e results.
const ui = readJson('ui.json');
if (ui) {
	passed += ui.passed;
	failed += ui.failed;
}
// The SSRF-protection run (test/e2e/ssrf), same format.
const e2eSsrf = readJson('e2e-ssrf.json');
if (e2eSsrf) {
	passed += e2eSsrf.passed;
	failed += e2eSsrf.failed;
}
// n8n's community-package scanner (.ci/scan.js): one test per leg, source and packed tarball.
const scan = readJson('scan.json');
if (scan) {
	passed += scan.passed;
	failed += scan.failed;
}

// Failed steps whose failures are not already inside a result file.
const stepFailures = Number(failedStepCount) || 0;
let unaccounted = stepFailures;
if (stepFailures > 0) {
	const names = failedStepNames || '';
	if (jest && names.includes('npm test') && jest.numFailedTests + (jest.numRuntimeErrorTestSuites || 0) > 0) unaccounted--;
	if (e2e && names.includes('e2e (real') && e2e.failed > 0) unaccounted--;
	if (e2eQueue && names.includes('e2e queue') && e2eQueue.failed > 0) unaccounted--;
	if (e2eSsrf && names.includes('e2e SSRF') && e2eSsrf.failed > 0) unaccounted--;
	if (scan && names.includes('scanner') && scan.failed > 0) unaccounted--;
	if (ui && names.includes('editor in a browser') && ui.failed > 0) unaccounted--;
	console.log(`failed steps: ${names}`);
}
failed += Math.max(unaccounted, 0);

console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
