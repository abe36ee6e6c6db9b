/**
 * n8n 1.x answers every request "Database is not ready!" (503) while its database ping (SELECT 1, 5 s timeout, every
 * 2 s) fails, as SQLite does beside a large execution being saved on 2 loaded cores. The middleware that says so
 * stands before routing (abstract-server's health check), so the request, a webhook call included, was not handled
 * and sending it again is safe. Any other answer, any other 503 included, is returned as it is.
 */

/** How long a request is sent again while n8n answers that its database is not ready. */
const DATABASE_NOT_READY_WAIT_MS = 60_000;
const RETRY_AFTER_MS = 1_000;

function isDatabaseNotReady(status: number, text: string): boolean {
	return status === 503 && /database is not ready/i.test(text);
}

/** Sends with `send` until n8n's answer is not "Database is not ready!", for up to a minute. */
export async function sendWhileDatabaseNotReady<T extends { status: number; text: string }>(send: () => Promise<T>): Promise<T> {
	const deadline = Date.now() + DATABASE_NOT_READY_WAIT_MS;
	for (;;) {
		const answer = await send();
		if (!isDatabaseNotReady(answer.status, answer.text) || Date.now() > deadline) return answer;
		await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
	}
}
