import type { Page } from 'playwright-core';

import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { EditorBrowser } from '../browser';

export interface UiContext {
	browser: EditorBrowser;
	page: Page;
	editorUrl: string;
	admin: SandboxAdmin;
	/** Workflow id by name (`example-<file>` for examples/). */
	workflowIds: Record<string, string>;
}

export interface UiCheck {
	name: string;
	/** Throws with what the screen showed instead; resolves with a one-line summary of what it saw. */
	run(ctx: UiContext): Promise<string>;
}

export function expectText(what: string, text: string, expected: string | RegExp): void {
	const ok = typeof expected === 'string' ? text.includes(expected) : expected.test(text);
	if (!ok) throw new Error(`${what}: expected ${String(expected)}, the screen shows: ${JSON.stringify(text.slice(0, 600))}`);
}

export function expectNoText(what: string, text: string, unexpected: RegExp): void {
	if (unexpected.test(text)) throw new Error(`${what}: shows ${String(unexpected)}: ${JSON.stringify(text.slice(0, 600))}`);
}
