// Runs the ESLint leg of n8n's community-package scanner (@n8n/scan-community-package, the gate n8n runs before
// verifying a community package) on this package, without the registry: the scanner itself downloads the
// published tarball and the source its provenance points at; here the same analysis runs on
//   1. the source (the repo: package.json, nodes/, credentials/), with the scanner's own file patterns;
//   2. the packed tarball (`npm pack`, unpacked), compiled .js and package.json, as the scanner scans it.
// Both call the scanner's own `analyzePackage`, so its config applies exactly: its rule set, and inline
// `eslint-disable` comments ignored (allowInlineConfig: false). Needs `npm run build` first (the tarball ships dist/).
//
// Usage: node .ci/scan.js [--results <file.json>]   writes {passed, failed, legs} for .ci/summarize.js
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const resultsArg = process.argv.indexOf('--results');
const resultsFile = resultsArg > 0 ? path.resolve(process.argv[resultsArg + 1]) : undefined;

/** Packs the package into `workDir` and unpacks it as the scanner does (tar --strip-components=1). */
function packAndUnpack(workDir) {
	const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: root, encoding: 'utf8' });
	if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
	const [{ filename }] = JSON.parse(pack.stdout);
	const packageDir = path.join(workDir, 'package');
	fs.mkdirSync(packageDir);
	const untar = spawnSync('tar', ['-xzf', path.join(workDir, filename), '-C', packageDir, '--strip-components=1'], {
		encoding: 'utf8',
	});
	if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
	return packageDir;
}

/** The node and credential files package.json declares but the tarball lacks (a pack without a build lints nothing). */
function missingDeclaredFiles(packageDir) {
	const { n8n } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	return [...(n8n.nodes || []), ...(n8n.credentials || [])].filter((file) => !fs.existsSync(path.join(packageDir, file)));
}

async function runLeg(name, analyze) {
	try {
		const result = await analyze();
		// The scanner reports "No files found to analyze" as a pass; for us it means nothing was checked.
		const passed = result.passed && result.message === undefined;
		return { name, passed, message: result.message, details: result.details };
	} catch (error) {
		return { name, passed: false, message: error.message };
	}
}

async function main() {
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-scan-'));
	// The scanner makes a temp folder when it is loaded and never removes it: make it inside ours.
	process.env.TMPDIR = workDir;
	try {
		const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
		const legs = [
			await runLeg('source (package.json, nodes/, credentials/)', () => analyzePackage(root, SOURCE_FILE_PATTERNS)),
			await runLeg('packed tarball (npm pack)', async () => {
				const packageDir = packAndUnpack(workDir);
				const missing = missingDeclaredFiles(packageDir);
				if (missing.length) return { passed: false, message: `the tarball lacks ${missing.join(', ')}: run npm run build first` };
				return analyzePackage(packageDir, ['**/*.js', 'package.json']);
			}),
		];
		for (const leg of legs) {
			console.log(`${leg.passed ? 'ok  ' : 'FAIL'} n8n scanner ESLint, ${leg.name}${leg.message ? `: ${leg.message}` : ''}`);
			if (leg.details) console.log(leg.details);
		}
		const passed = legs.filter((leg) => leg.passed).length;
		const summary = { passed, failed: legs.length - passed, legs: legs.map(({ name, passed: ok, message }) => ({ name, passed: ok, message })) };
		if (resultsFile) fs.writeFileSync(resultsFile, `${JSON.stringify(summary, null, 2)}\n`);
		return summary.failed === 0;
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
