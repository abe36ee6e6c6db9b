// GET /labels/<platform sku>.pdf: the sandbox serves the shipping labels its item_purchased events point at, so
// a client's label download can be exercised for real (no authentication, a well-formed PDF, 404 when unknown).
import { startReceiver, useSandbox } from './helpers';

const { sb, api } = useSandbox();
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
	receiver = await startReceiver();
});
afterEach(async () => {
	await receiver.close();
});

async function purchase(data: Record<string, unknown> = {}): Promise<{ sku: string; vendor_sku: string; pdf_url: string }> {
	const delivery = await sb().admin.emitEvent({ operation: 'item_purchased', url: receiver.url, data });
	expect(delivery.status).toBe(200);
	return receiver.received.at(-1)!.body.body.data;
}

/** What a PDF reader relies on: header, trailer, and an xref table whose offsets point at the objects. */
function expectWellFormedPdf(bytes: Buffer): void {
	const text = bytes.toString('latin1');
	expect(text.startsWith('%PDF-1.')).toBe(true);
	expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
	const xrefAt = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(text)?.[1]);
	expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
	const [, count, table] = /^xref\n0 (\d+)\n([\s\S]*?)trailer/.exec(text.slice(xrefAt)) ?? [];
	const entries = table.match(/.{20}/gs) ?? [];
	expect(entries).toHaveLength(Number(count));
	entries.slice(1).forEach((entry, i) => {
		const offset = Number(entry.slice(0, 10));
		expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true);
	});
	const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)?.[1]);
	const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
	expect(text.slice(streamStart + length)).toMatch(/^\nendstream/);
}

describe('GET /labels/{sku}.pdf', () => {
	it('item_purchased points pdf_url at the sandbox, which serves that label as a PDF without authentication', async () => {
		const event = await purchase({ vendor_sku: 'SBX-1002' });
		expect(event.pdf_url).toBe(`${sb().url}/labels/${event.sku}.pdf`);

		await sb().admin.clearRequests();
		const res = await fetch(event.pdf_url);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/pdf');
		const bytes = Buffer.from(await res.arrayBuffer());
		expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
		expectWellFormedPdf(bytes);
		expect(bytes.toString('latin1')).toContain(`(Order: ${event.sku})`);
		expect(bytes.toString('latin1')).toContain('(Vendor SKU: SBX-1002)');
		// Label downloads are in the request log like API requests (here: no Authorization header was sent).
		expect(await sb().admin.requests()).toEqual([
			expect.objectContaining({ method: 'GET', path: `/labels/${event.sku}.pdf`, status: 200, authorized: false }),
		]);
	});

	it('serves the seeded order TRR-ORD-000001 at the pdf_url the state shows, also after it was cancelled', async () => {
		const order = (await sb().admin.state()).orders.find((o) => o.sku === 'TRR-ORD-000001');
		expect(order?.pdf_url).toBe(`${sb().url}/labels/TRR-ORD-000001.pdf`);
		expect((await api().request('POST', '/v1/cancellations', { body: { sku: 'TRR-ORD-000001' } })).status).toBe(200);
		const res = await fetch(order!.pdf_url);
		expect(res.status).toBe(200);
		expectWellFormedPdf(Buffer.from(await res.arrayBuffer()));
	});

	it('serves the label of a purchase emitted with a chosen sku; keeps a pdf_url the caller gives', async () => {
		const chosen = await purchase({ sku: 'TRR-CHOSEN (1)' });
		expect(chosen.pdf_url).toBe(`${sb().url}/labels/TRR-CHOSEN%20(1).pdf`);
		const res = await fetch(chosen.pdf_url);
		expect(res.status).toBe(200);
		expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toContain('(Order: TRR-CHOSEN \\(1\\))');

		const given = await purchase({ pdf_url: 'https://labels.example.com/elsewhere.pdf' });
		expect(given.pdf_url).toBe('https://labels.example.com/elsewhere.pdf');
		expect((await sb().admin.state()).orders.find((o) => o.sku === given.sku)?.pdf_url).toBe('https://labels.example.com/elsewhere.pdf');
	});

	it('answers 404 {error} for a sku without an order and for a name that is not <sku>.pdf', async () => {
		for (const path of ['/labels/TRR-ORD-999999.pdf', '/labels/SBX-1000.pdf', '/labels/TRR-ORD-000001', '/labels/TRR-ORD-000001.txt']) {
			const res = await fetch(`${sb().url}${path}`);
			expect({ path, status: res.status }).toEqual({ path, status: 404 });
			expect(await res.json()).toEqual({ error: expect.stringContaining('No shipping label') });
		}
	});

	it('is subject to injected faults like any API path (a client can be shown a failing label host)', async () => {
		await sb().admin.addFault({ kind: 'status', status: 503, pathPrefix: '/labels/' });
		expect((await fetch(`${sb().url}/labels/TRR-ORD-000001.pdf`)).status).toBe(503);
		expect((await fetch(`${sb().url}/labels/TRR-ORD-000001.pdf`)).status).toBe(200);
	});
});
