// The batched runner (Item Create, Create or Update) without n8n: what a user sees when a row's expression throws,
// when the execution is cancelled mid-way, and how the failed-items error counts what was sent.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runBatched, type Batched, type Row, type RowResult } from '../../nodes/ConsignmentVendor/resources/item/helpers/batchRunner';
import { FAKE_NODE } from './fakes';

const payload = (sku: string) => ({ vendor_sku: sku }) as Row['payload'];

function fakeContext(count: number, options: { continueOnFail: boolean; cancel?: AbortController }): IExecuteFunctions {
	const input: INodeExecutionData[] = Array.from({ length: count }, (_, index) => ({ json: { index } }));
	return {
		getInputData: () => input,
		getNode: () => FAKE_NODE,
		continueOnFail: () => options.continueOnFail,
		getNodeParameter: (_name: string, _index: number, fallback: unknown) => fallback,
		getExecutionCancelSignal: () => options.cancel?.signal,
	} as unknown as IExecuteFunctions;
}

/** Batches of 2; every row sent is submitted; `sent` records the SKUs of each request. */
function recordingBatch(sent: string[][]): Batched<Row> {
	return {
		key: () => 'one',
		size: 2,
		preview: (row) => ({ ok: 'noRequest', json: { sku: row.payload.vendor_sku }, outcome: 'would create' }),
		send: async (_context, rows) => {
			sent.push(rows.map((row) => row.payload.vendor_sku));
			return new Map<number, RowResult>(rows.map((row) => [row.itemIndex, { ok: true, json: { status: 'submitted' } }]));
		},
	};
}

/** These rows have no SKU to label a refusal with. */
const enteredSku = () => undefined;

describe('batched runner', () => {
	it('under Continue On Fail, a row whose reading throws (an expression) fails alone, also when rows are settled first', async () => {
		const sent: string[][] = [];
		const read = (_context: unknown, itemIndex: number) => {
			if (itemIndex === 1) throw new Error('Referenced node does not exist');
			return { itemIndex, payload: payload(`S-${itemIndex}`) };
		};
		const output = await runBatched(
			fakeContext(3, { continueOnFail: true }),
			{ read, enteredSku, batch: recordingBatch(sent), settle: async (_context, rows) => rows.map((row) => ({ batch: row })) },
			false,
		);
		expect(output[0].map((item) => [item.pairedItem, item.json.status ?? item.json.error])).toEqual([
			[{ item: 0 }, 'submitted'],
			[{ item: 1 }, 'Item index 1: Referenced node does not exist'],
			[{ item: 2 }, 'submitted'],
		]);
		expect(sent).toEqual([['S-0', 'S-2']]);
	});

	it('a cancelled execution stops reading, sends no further batch and ends as cancelled, not as a short output', async () => {
		const sent: string[][] = [];
		const cancel = new AbortController();
		const read = (_context: unknown, itemIndex: number) => {
			if (itemIndex === 3) cancel.abort();
			return { itemIndex, payload: payload(`C-${itemIndex}`) };
		};
		const run = runBatched(fakeContext(20, { continueOnFail: true, cancel }), { read, enteredSku, batch: recordingBatch(sent) }, false);
		await expect(run).rejects.toThrow(/^The execution was cancelled$/);
		expect(sent.flat()).toEqual(['C-0', 'C-1', 'C-2', 'C-3']);
	});

	it('rows settled without a request ("not applied") are not counted as sent when another row fails', async () => {
		const read = (_context: unknown, itemIndex: number) => ({ itemIndex, payload: payload(`N-${itemIndex}`) });
		const settle = async (): Promise<RowResult[]> => [
			{ ok: true, json: { operation: 'not applied', status: 'not applied' } },
			{ ok: false, failure: { itemIndex: 1, vendorSku: 'N-1', messages: ['price is invalid'] } },
		];
		const run = runBatched(fakeContext(2, { continueOnFail: false }), { read, enteredSku, batch: recordingBatch([]), settle }, false);
		await expect(run).rejects.toMatchObject({
			message: '1 of 2 items failed. Item index 1 (vendor_sku N-1): price is invalid',
			description: expect.stringMatching(/^No item was created or changed\./),
		});
	});
});
