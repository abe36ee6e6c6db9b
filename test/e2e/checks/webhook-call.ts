import type { CheckContext } from './types';

/**
 * Calls a production webhook of the running n8n. A 404 means the just-activated workflow's webhook is not
 * registered yet (nothing ran), so it is asked again for up to 30 s.
 */
export async function callWebhook(ctx: CheckContext, path: string, init: RequestInit = {}): Promise<{ status: number; answer: string }> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const res = await fetch(`${ctx.server!.server.url}/webhook/${path}`, { signal: AbortSignal.timeout(600_000), ...init });
		const answer = await res.text();
		if (res.status !== 404 || Date.now() > deadline) return { status: res.status, answer };
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
}
