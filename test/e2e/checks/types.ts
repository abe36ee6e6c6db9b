import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { ExecuteOutcome, ExportedCredential, N8nInstance } from '../lib/n8n-cli';
import type { N8nApi } from '../lib/n8n-api';
import type { N8nServer } from '../lib/n8n-server';
import type { ApiTarget } from '../target';

/** Everything a check may use. `admin` exists only when the target is our sandbox. */
export interface CheckContext {
	version: string;
	target: ApiTarget;
	admin?: SandboxAdmin;
	instance: N8nInstance;
	/** Workflow file name (without .json) -> id it was imported with. */
	workflowId(name: string): string;
	/** `n8n execute` of a workflow file by name. */
	execute(workflow: string): Promise<ExecuteOutcome>;
	/** Decrypted credentials as n8n stores them (`export:credentials --all --decrypted`). */
	exportCredentials(): Promise<ExportedCredential[]>;
	/** Present in the server phase. */
	server?: ServerHandle;
}

export interface ServerHandle {
	server: N8nServer;
	api: N8nApi;
	/** Stops and starts `n8n start` on the same folder, port and API key; `whileStopped` runs in between. */
	restart(whileStopped?: () => Promise<void>): Promise<void>;
}

export interface Check {
	name: string;
	/** cli: run with `n8n execute`; server: needs a running `n8n start`. */
	phase: 'cli' | 'server';
	/** The check needs the sandbox's admin endpoints (request log, clock, events). */
	needsSandbox?: boolean;
	/** Returns a short description of what was seen; throws CheckFailure (or any Error) saying what differed. */
	run(ctx: CheckContext): Promise<string>;
}

export class CheckFailure extends Error {}

export function fail(message: string): never {
	throw new CheckFailure(message);
}

/** Reads until `done` holds what was read; past `timeoutMs`, fails with `failure(last value read)`. */
export async function pollUntil<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs: number,
	failure: (last: T) => string,
	intervalMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline) fail(failure(value));
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

/** A check that needs the sandbox's admin endpoints (request log, clock, events); `run` gets its client. */
export function sandboxCheck(phase: Check['phase'], name: string, run: (ctx: CheckContext, admin: SandboxAdmin) => Promise<string>): Check {
	return { name, phase, needsSandbox: true, run: async (ctx) => await run(ctx, sandboxOf(ctx)) };
}

/** Narrows an optional admin client for checks declared `needsSandbox`. */
export function sandboxOf(ctx: CheckContext): SandboxAdmin {
	if (!ctx.admin) fail('this check needs the sandbox');
	return ctx.admin;
}
