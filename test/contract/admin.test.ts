import { SandboxAdmin, startSandbox } from '../sandbox';
import { startReceiver, useSandbox, validAddress, validItem } from './helpers';

const { sb, api } = useSandbox();

describe('admin API', () => {
	it('reset brings back the seeded data, vendor config and signing secret', async () => {
		const seeded = await sb().admin.state();
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem({ vendor_sku: 'GONE' })] } });
		await api().request('POST', '/v1/vendor/addresses', { body: validAddress() });
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: 'https://x.example.com', webhook_enabled: true } });
		await sb().admin.setSigningSecret('s3cret');
		await sb().admin.reset();
		const after = await sb().admin.state();
		// Seeded timestamps are relative to the time of the reset; everything else is identical.
		const withoutTimes = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'now' || /_at$/.test(k) ? null : x)));
		expect(withoutTimes(after)).toEqual(withoutTimes(seeded));
		expect(after.vendor.webhook_url).toBeNull();
		const receiver = await startReceiver();
		try {
			await sb().admin.emitEvent({ operation: 'marker', url: receiver.url });
			expect(receiver.received[0].headers['x-trr-signature']).toBeUndefined();
		} finally {
			await receiver.close();
		}
	});

	it('seeds >20 approved and >20 non-approved items in every status, two+ consignments, active and inactive addresses', async () => {
		const state = await sb().admin.state();
		const count = (s: string) => state.items.filter((i) => i.validation_status === s).length;
		expect(count('approved')).toBeGreaterThan(20);
		expect(state.items.length - count('approved')).toBeGreaterThan(20);
		for (const s of ['reconciliation', 'pending', 'rejected', 'deleted']) expect(count(s)).toBeGreaterThan(0);
		expect(state.consignments.length).toBeGreaterThanOrEqual(2);
		expect(state.addresses.some((a) => a.active)).toBe(true);
		expect(state.addresses.some((a) => !a.active)).toBe(true);
		for (const i of state.items) expect(i.id).not.toBe(i.item_id);
	});

	it('catalog lists the valid designers, conditions and taxon permalinks (what item creation accepts)', async () => {
		const catalog = await sb().admin.catalog();
		expect(catalog.designers.length).toBeGreaterThan(3);
		expect(catalog.conditions.length).toBeGreaterThan(2);
		expect(catalog.taxonPermalinks.some((t) => t.startsWith('watches/'))).toBe(true);
		const items = catalog.designers.map((designer, n) =>
			validItem({ vendor_sku: `CAT-${n}`, designer, condition: catalog.conditions[n % catalog.conditions.length], taxon_permalink: catalog.taxonPermalinks[n % catalog.taxonPermalinks.length], upc: '012345678905' }),
		);
		expect((await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items } })).status).toBe(200);
	});

	it('clock advances and reset rewinds it', async () => {
		const before = Date.parse(await sb().admin.now());
		const advanced = Date.parse(await sb().admin.advanceClock(86400));
		expect(advanced - before).toBeGreaterThanOrEqual(86400 * 1000);
		await sb().admin.reset();
		expect(Date.parse(await sb().admin.now())).toBeLessThan(advanced - 3600 * 1000);
	});

	it('a frozen clock stands still (the Date header too), moves only when advanced, and runs on from there when let go', async () => {
		const frozen = Date.parse(await sb().admin.freezeClock());
		await new Promise((resolve) => setTimeout(resolve, 1_100));
		expect(Date.parse(await sb().admin.now())).toBe(frozen);
		const answer = await fetch(`${sb().baseUrl}/v1/items`);
		expect(Date.parse(answer.headers.get('date')!)).toBe(Math.floor(frozen / 1000) * 1000);
		expect(Date.parse(await sb().admin.advanceClock(60))).toBe(frozen + 60_000);
		const running = Date.parse(await sb().admin.freezeClock(false));
		expect(running).toBeGreaterThanOrEqual(frozen + 60_000);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(Date.parse(await sb().admin.now())).toBeGreaterThan(running);
	});

	it('API answers can go without a Date header (none of Node\'s either) until told again or reset', async () => {
		await sb().admin.sendDateHeader(false);
		expect((await fetch(`${sb().baseUrl}/v1/items`)).headers.get('date')).toBeNull();
		await sb().admin.sendDateHeader(true);
		expect((await fetch(`${sb().baseUrl}/v1/items`)).headers.get('date')).not.toBeNull();
		await sb().admin.sendDateHeader(false);
		await sb().admin.reset();
		expect((await fetch(`${sb().baseUrl}/v1/items`)).headers.get('date')).not.toBeNull();
	});

	it('setItemStatus changes an item status and refuses unknown statuses and items', async () => {
		const item = (await sb().admin.state()).items.find((i) => i.validation_status === 'pending')!;
		expect((await sb().admin.setItemStatus(item.item_id, 'rejected')).validation_status).toBe('rejected');
		await expect(sb().admin.setItemStatus(item.item_id, 'live' as never)).rejects.toThrow(/400/);
		await expect(sb().admin.setItemStatus(1, 'approved')).rejects.toThrow(/404/);
	});

	it('SandboxAdmin works standalone against any sandbox URL, and seed:false starts without items or addresses', async () => {
		const other = await startSandbox({ seed: false });
		try {
			const admin = new SandboxAdmin(other.url);
			const state = await admin.state();
			expect(state.items).toEqual([]);
			expect(state.addresses).toEqual([]);
			expect(state.consignments.map((c) => c.id)).toEqual(['cons_12345', '1001', 'cons_67890']);
			await admin.reset();
			expect((await admin.state()).items).toEqual([]);
		} finally {
			await other.close();
		}
	});
});
