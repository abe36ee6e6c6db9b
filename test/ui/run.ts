/**
 * `npm run test:ui`: what a person sees in n8n's editor, checked in a real browser. Starts the sandbox (signing its
 * deliveries, as `npm run dev` does) and real n8n 2.x with the packed package, the credential and the examples (as
 * the e2e suite loads them), opens the editor in Debian's headless Chromium and goes through the first hour of a new
 * user: the node list, a new Create or Update node, the first workflow's example run, the trigger's test listening,
 * the Item Trigger's test event.
 *
 * Writes `{passed, failed, skipped, checks}` (the e2e format, .ci/summarize.js counts it) to UI_RESULTS_FILE and a PNG
 * per step to UI_SCREENSHOTS_DIR (defaults under .e2e-work/ui). E2E_SKIP_BUILD=1 skips `npm run build`;
 * UI_CHROMIUM overrides /usr/bin/chromium. About 1.5 min when n8n is installed (~/.cache, as the e2e suite does).
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { SandboxAdmin } from '../sandbox/admin-client';
import { ensureInstalled, N8N_RELEASES } from '../e2e/install';
import { exitWith } from '../e2e/lib/children';
import { exec, tail } from '../e2e/lib/exec';
import { REPO_DIR } from '../e2e/lib/package-loader';
import { formatResult, writeResults, type CheckResult } from '../e2e/lib/report';
import { CHROMIUM, openEditor } from './browser';
import { UI_CHECKS } from './checks';
import { startEditorInstance, UI_OWNER, type EditorInstance } from './instance';

const WORK_DIR = join(REPO_DIR, '.e2e-work', 'ui');
const resultsFile = process.env.UI_RESULTS_FILE ?? join(WORK_DIR, 'results.json');
const screenshotsDir = process.env.UI_SCREENSHOTS_DIR ?? join(WORK_DIR, 'screenshots');
/** The README's pictures of the editor: taken from this run's screens, so they show what the editor shows today. */
const README_PICTURES: Record<string, string> = {
	'05-example-run-summary.png': 'editor-first-workflow-run.png',
	'07-trigger-received-event.png': 'editor-trigger-event.png',
	'08-item-trigger-test-event.png': 'editor-item-trigger-event.png',
};
const readmePicturesDir = process.env.UI_README_PICTURES_DIR ?? join(REPO_DIR, 'docs', 'images');
const log = (m: string) => console.log(`[ui] ${m}`);

async function main(): Promise<number> {
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	const results: CheckResult[] = [];
	const record = (result: CheckResult) => {
		results.push(result);
		console.log(formatResult(result));
	};
	const finish = () => {
		const summary = writeResults(resultsFile, results);
		log(`${summary.passed} passed, ${summary.failed} failed (results: ${resultsFile}, screenshots: ${screenshotsDir})`);
		return summary.failed > 0 || results.length === 0 ? 1 : 0;
	};
	const setupFailed = (name: string, error: unknown) => {
		record({ version: release.version, name: `setup: ${name}`, ok: false, detail: (error as Error).message ?? String(error), ms: 0 });
		for (const check of UI_CHECKS) record({ version: release.version, name: check.name, ok: false, detail: `not run: ${name} failed`, ms: 0 });
		return finish();
	};

	const started = Date.now();
	if (!existsSync(CHROMIUM)) return setupFailed('Chromium', new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set UI_CHROMIUM)`));
	if (process.env.E2E_SKIP_BUILD !== '1') {
		const build = await exec('npm', ['run', 'build'], { cwd: REPO_DIR, timeoutMs: 600_000 });
		if (build.code !== 0) return setupFailed('npm run build', new Error(tail(build.stdout + build.stderr)));
	}
	let instance: EditorInstance;
	try {
		const [install] = await ensureInstalled([release], log);
		instance = await startEditorInstance(install, WORK_DIR);
	} catch (error) {
		return setupFailed('n8n with the package and the sandbox', error);
	}
	log(`n8n ${release.version} at ${instance.server.url}, sandbox at ${instance.sandbox.baseUrl} (${((Date.now() - started) / 1000).toFixed(0)} s)`);

	try {
		const browser = await openEditor(instance.server.url, UI_OWNER, screenshotsDir).catch((error: Error) => error);
		if (browser instanceof Error) return setupFailed('Chromium opens the editor and signs in', browser);
		const ctx = {
			browser,
			page: browser.page,
			editorUrl: instance.server.url,
			admin: new SandboxAdmin(instance.sandbox.baseUrl),
			workflowIds: instance.workflowIds,
		};
		for (const check of UI_CHECKS) {
			const checkStarted = Date.now();
			try {
				record({ version: release.version, name: check.name, ok: true, detail: await check.run(ctx), ms: Date.now() - checkStarted });
			} catch (error) {
				const shot = await browser.shot(`failed-${UI_CHECKS.indexOf(check) + 1}`).catch(() => 'no screenshot');
				record({ version: release.version, name: check.name, ok: false, detail: `${(error as Error).message}\n(screen: ${shot})`, ms: Date.now() - checkStarted });
			}
		}
		await browser.close();
		// Only a run whose every check passed shows the editor as the README describes it.
		if (results.every((result) => result.ok)) {
			mkdirSync(readmePicturesDir, { recursive: true });
			for (const [screen, picture] of Object.entries(README_PICTURES)) copyFileSync(join(screenshotsDir, screen), join(readmePicturesDir, picture));
			log(`README pictures written to ${readmePicturesDir}`);
		}
	} finally {
		await instance.stop();
	}
	log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return finish();
}

exitWith(main);
