// /__sandbox/* : test control and inspection. No authentication, not logged in the request log.
import { catalogSnapshot } from './catalog';
import { emitEvent, parseEmitRequest } from './events';
import { registerBulkSeedAdmin } from './bulk-seed';
import { FaultQueue } from './faults';
import { fail, jsonObjectBody, ok } from './http';
import { registerItemSettingsAdmin } from './item-settings';
import { registerPagingAdmin } from './paging-settings';
import { RateLimiter } from './rate-limiter';
import { Router } from './router';
import type { Sandbox } from './sandbox';
import { ITEM_STATUSES, type ItemStatus } from './types';

export function buildAdminRouter(sandbox: Sandbox): Router {
	const r = new Router();
	const P = '/__sandbox';

	r.add('POST', `${P}/reset`, () => {
		sandbox.reset();
		return ok({ ok: true });
	});

	r.add('GET', `${P}/requests`, () => ok({ requests: sandbox.requestLog }));
	r.add('DELETE', `${P}/requests`, () => {
		sandbox.requestLog = [];
		return ok({ ok: true });
	});

	r.add('GET', `${P}/clock`, () => ok({ now: sandbox.clock.nowIso() }));
	r.add('POST', `${P}/clock`, (ctx) => {
		const { advanceSeconds, frozen, sendsDate } = jsonObjectBody(ctx.body);
		if (advanceSeconds === undefined && frozen === undefined && sendsDate === undefined) throw fail(400, 'advanceSeconds, frozen or sendsDate is required');
		if (advanceSeconds !== undefined && (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds))) throw fail(400, 'advanceSeconds must be a number');
		if (frozen !== undefined && typeof frozen !== 'boolean') throw fail(400, 'frozen must be true or false');
		if (sendsDate !== undefined && typeof sendsDate !== 'boolean') throw fail(400, 'sendsDate must be true or false');
		if (sendsDate !== undefined) sandbox.clock.sendsDate = sendsDate;
		if (frozen !== undefined) sandbox.clock.freeze(frozen);
		if (advanceSeconds !== undefined) sandbox.clock.advance(advanceSeconds);
		return ok({ now: sandbox.clock.nowIso() });
	});

	r.add('GET', `${P}/catalog`, () => ok(catalogSnapshot()));

	r.add('POST', `${P}/items/:item_id/status`, (ctx) => {
		const { status } = jsonObjectBody(ctx.body);
		if (!ITEM_STATUSES.includes(status as ItemStatus)) throw fail(400, `status must be one of ${ITEM_STATUSES.join(', ')}`);
		const item = sandbox.store.findItem(Number(ctx.params.item_id));
		if (!item) throw fail(404, `Item ${ctx.params.item_id} not found`);
		item.validation_status = status as ItemStatus;
		item.updated_at = sandbox.clock.nowIso();
		return ok({ item });
	});

	r.add('POST', `${P}/events`, async (ctx) => {
		const delivery = await emitEvent(sandbox, parseEmitRequest(jsonObjectBody(ctx.body)));
		return ok({ delivery });
	});

	r.add('GET', `${P}/faults`, () => ok({ faults: sandbox.faults.list() }));
	r.add('POST', `${P}/faults`, (ctx) => {
		const fault = FaultQueue.parse(jsonObjectBody(ctx.body));
		// Revoking is a one-off action, not something that waits for matching requests.
		if (fault.kind === 'revokeTokens') sandbox.tokens.revokeAll();
		else sandbox.faults.add(fault);
		return ok({ faults: sandbox.faults.list() });
	});
	r.add('DELETE', `${P}/faults`, () => {
		sandbox.faults.clear();
		return ok({ faults: [] });
	});

	r.add('GET', `${P}/rate-limit`, () => ok({ rateLimit: sandbox.rateLimiter.current }));
	r.add('POST', `${P}/rate-limit`, (ctx) => {
		sandbox.rateLimiter.set(RateLimiter.parse(jsonObjectBody(ctx.body)));
		return ok({ rateLimit: sandbox.rateLimiter.current });
	});
	r.add('DELETE', `${P}/rate-limit`, () => {
		sandbox.rateLimiter.clear();
		return ok({ rateLimit: null });
	});

	r.add('GET', `${P}/latency`, () => ok({ ms: sandbox.latencyMs }));
	r.add('POST', `${P}/latency`, (ctx) => {
		const { ms } = jsonObjectBody(ctx.body);
		if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > 600_000) throw fail(400, 'ms must be an integer from 0 to 600000');
		sandbox.latencyMs = ms;
		return ok({ ms });
	});
	r.add('DELETE', `${P}/latency`, () => {
		sandbox.latencyMs = 0;
		return ok({ ms: 0 });
	});

	r.add('POST', `${P}/signing-secret`, (ctx) => {
		const { secret } = jsonObjectBody(ctx.body);
		if (secret !== null && (typeof secret !== 'string' || secret === '')) throw fail(400, 'secret must be a non-empty string or null');
		sandbox.store.signingSecret = secret;
		// The secret itself is never echoed back.
		return ok({ signing: secret !== null });
	});

	r.add('POST', `${P}/token-format`, (ctx) => {
		const { format } = jsonObjectBody(ctx.body);
		if (format !== 'contract' && format !== 'public-docs') throw fail(400, 'format must be "contract" or "public-docs"');
		sandbox.store.tokenFormat = format;
		return ok({ format });
	});

	r.add('POST', `${P}/token-policy`, (ctx) => {
		const { oneActivePerClient } = jsonObjectBody(ctx.body);
		if (typeof oneActivePerClient !== 'boolean') throw fail(400, 'oneActivePerClient must be a boolean');
		sandbox.store.oneActiveTokenPerClient = oneActivePerClient;
		return ok({ oneActivePerClient });
	});

	r.add('POST', `${P}/patch-policy`, (ctx) => {
		const { partialNonApproved } = jsonObjectBody(ctx.body);
		if (typeof partialNonApproved !== 'boolean') throw fail(400, 'partialNonApproved must be a boolean');
		sandbox.store.partialPatchOfNonApproved = partialNonApproved;
		return ok({ partialNonApproved });
	});

	r.add('GET', `${P}/state`, () => ok(sandbox.store.snapshot(sandbox.clock.nowIso())));

	r.add('GET', `${P}/webhook-deliveries`, () => ok({ deliveries: sandbox.webhooks.deliveries }));
	r.add('DELETE', `${P}/webhook-deliveries`, () => {
		sandbox.webhooks.deliveries = [];
		return ok({ ok: true });
	});

	registerPagingAdmin(r, P, { get: () => sandbox.paging, set: (settings) => (sandbox.paging = settings) });
	registerItemSettingsAdmin(r, P, { get: () => sandbox.items, set: (settings) => (sandbox.items = settings) });
	registerBulkSeedAdmin(r, P, { store: () => sandbox.store, nowIso: () => sandbox.clock.nowIso() });

	return r;
}
