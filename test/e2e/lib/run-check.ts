import type { Check, CheckContext } from '../checks/types';
import type { CheckResult } from './report';

/** Runs one check and turns its outcome (or exception) into a result; never throws. */
export async function runCheck(check: Check, ctx: CheckContext): Promise<CheckResult> {
	const base = { version: ctx.version, name: check.name };
	if (check.needsSandbox && !ctx.admin) {
		return { ...base, ok: true, detail: '', skipped: ctx.target.external ?? 'no sandbox', ms: 0 };
	}
	const started = Date.now();
	try {
		const detail = await check.run(ctx);
		return { ...base, ok: true, detail, ms: Date.now() - started };
	} catch (error) {
		return { ...base, ok: false, detail: (error as Error).message || String(error), ms: Date.now() - started };
	}
}
