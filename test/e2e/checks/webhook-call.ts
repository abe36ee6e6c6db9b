import { sendWhileDatabaseNotReady } from '../lib/database-not-ready';
import type { CheckContext } from './types';

/**
 * Calls a production webhook of the running n8n. A 404 means the just-activated workflow's webhook is not
 * registered yet (nothing ran), so it is asked again for up to 30 s; "Database is not ready!" means n8n refused the
 * call before routing it, so it is sent again (lib/database-not-ready.ts).
 */
export async function callWebhook(ctx: CheckContext, path: string, init: RequestInit = {}): Promise<{ status: number; answer: string }> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const { status, text } = await sendWhileDatabaseNotReady(async () => {
			const res = await fetch(`${ctx.server!.server.url}/webhook/${path}`, { signal: AbortSignal.timeout(600_000), ...init });
			return { status: res.status, text: await res.text() };
		});
		if (status !== 404 || Date.now() > deadline) return { status, answer: text };
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
}
