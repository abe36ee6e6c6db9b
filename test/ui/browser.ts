import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import type { OwnerAccount } from '../e2e/lib/n8n-api';

/** Debian's Chromium (`apt-get install chromium`): no browser download from npm works on CI's machines. */
export const CHROMIUM = process.env.UI_CHROMIUM ?? '/usr/bin/chromium';

/** Wide enough for the node panel's parameters and its output side by side. */
const VIEWPORT = { width: 1600, height: 1000 };

export interface EditorBrowser {
	page: Page;
	/** A PNG of what the page shows now, named after the step a person would look at. */
	shot(name: string): Promise<string>;
	close(): Promise<void>;
}

/** Headless Chromium with a fresh profile, quiet (no update checks, no sync), signed in to n8n as `owner`. */
export async function openEditor(editorUrl: string, owner: OwnerAccount, screenshotsDir: string): Promise<EditorBrowser> {
	const profile = mkdtempSync(join(tmpdir(), 'cv-ui-profile-'));
	mkdirSync(screenshotsDir, { recursive: true });
	let context: BrowserContext | undefined;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			viewport: VIEWPORT,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--disable-dev-shm-usage',
			],
		});
		context.setDefaultTimeout(30_000);
		const page = context.pages()[0] ?? (await context.newPage());
		await signIn(page, editorUrl, owner);
		const opened = context;
		return {
			page,
			shot: async (name) => {
				const file = join(screenshotsDir, `${name}.png`);
				// Panels slide in: a picture taken at once shows them half-way (the checks read the DOM, not the picture).
				await page.waitForTimeout(700);
				await page.screenshot({ path: file });
				return file;
			},
			close: async () => {
				await opened.close();
				rmSync(profile, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await context?.close();
		rmSync(profile, { recursive: true, force: true });
		throw error;
	}
}

async function signIn(page: Page, editorUrl: string, owner: OwnerAccount): Promise<void> {
	await page.goto(`${editorUrl}/signin`);
	await page.locator('input[type=email]').fill(owner.email);
	await page.locator('input[type=password]').fill(owner.password);
	await page.keyboard.press('Enter');
	await page.waitForURL(/\/(home|workflows)/, { timeout: 60_000 });
}

/** Opens a saved workflow and waits for its nodes to be drawn. */
export async function openWorkflow(page: Page, editorUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${editorUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

/** Opens a node's panel (a double click on the canvas, as a person does) and waits for its parameters. */
export async function openNode(page: Page, nodeName: string): Promise<void> {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick();
	await page.locator('[data-test-id="node-parameters"]').waitFor();
}
