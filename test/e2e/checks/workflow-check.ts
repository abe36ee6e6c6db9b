import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { RequestLogEntry, SandboxStateSnapshot } from '../../sandbox/types';
import type { ExecuteOutcome } from '../lib/n8n-cli';
import type { Check } from './types';
import { sandboxOf } from './types';

export interface WorkflowRun {
	/** File name in test/e2e/workflows/, without .json. */
	workflow: string;
	outcome: ExecuteOutcome;
	/** Every API request the run made (token exchanges included). */
	requests: RequestLogEntry[];
	/** Sandbox data after the run. */
	state: SandboxStateSnapshot;
	admin: SandboxAdmin;
	/** The n8n version the workflow ran in, e.g. `1.123.81`. */
	version: string;
}

export interface WorkflowCheckSpec {
	name: string;
	/** File name in test/e2e/workflows/, without .json. */
	workflow: string;
	/** Runs after the sandbox reset, before the request log is cleared. */
	setup?(admin: SandboxAdmin): Promise<void>;
	/** Throws (via fail/expect*) saying what differed; returns what was seen. */
	verify(run: WorkflowRun): string | Promise<string>;
	/**
	 * For read-only workflows: what can still be judged against an external server (E2E_BASE_URL), from n8n's
	 * output alone. Without it the check is skipped there.
	 */
	withoutSandbox?(outcome: ExecuteOutcome): string;
}

/**
 * The usual shape of an action check: sandbox back to its seed, `n8n execute` the workflow, then judge
 * n8n's output together with the requests n8n sent and the sandbox data they left behind.
 */
export function workflowCheck(spec: WorkflowCheckSpec): Check {
	return {
		name: spec.name,
		phase: 'cli',
		needsSandbox: !spec.withoutSandbox,
		async run(ctx) {
			if (!ctx.admin && spec.withoutSandbox) {
				return `${spec.withoutSandbox(await ctx.execute(spec.workflow))} (output only: ${ctx.target.external ?? 'no sandbox'})`;
			}
			const admin = sandboxOf(ctx);
			await admin.reset();
			await spec.setup?.(admin);
			await admin.clearRequests();
			const outcome = await ctx.execute(spec.workflow);
			const [requests, state] = await Promise.all([admin.requests(), admin.state()]);
			return spec.verify({ workflow: spec.workflow, outcome, requests, state, admin, version: ctx.version });
		},
	};
}
