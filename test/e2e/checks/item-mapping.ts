import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { validItemBody } from '../../integration/item-input';
import { WORKFLOWS_DIR } from '../lib/templates';
import { apiRequests, expectEqual, expectSuccess, outputOf, writeRequests } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

const WORKFLOW = 'item-create-mapped';

/** The contract's item creation inputs as columns (image as two), and those it marks optional. */
const CONTRACT_COLUMNS = ['vendor_sku', 'upc', 'taxon_permalink', 'condition', 'with_tags', 'designer', 'image_front', 'image_back', 'quantity', 'msrp', 'price', 'gender', 'taxon_specific_attributes', 'address_id', 'designer_specific_attributes'];
const OPTIONAL_COLUMNS = ['upc', 'address_id', 'designer_specific_attributes'];

/** The workflow must map with no expression at all: that is what Map Automatically is for. */
function expectNoExpressions(): void {
	const text = readFileSync(join(WORKFLOWS_DIR, `${WORKFLOW}.json`), 'utf8');
	if (text.includes('={{')) fail(`${WORKFLOW}.json holds an expression; the mapped node must need none`);
}

export const itemMappingChecks: Check[] = [
	workflowCheck({
		name: 'item Create Map Automatically: sheet rows with contract-named columns create items with no expressions',
		workflow: WORKFLOW,
		verify({ outcome, requests, state }) {
			expectNoExpressions();
			expectSuccess(outcome, WORKFLOW);
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			expectEqual(posts.length, 1, 'creation requests');
			const sent = (posts[0].body as { items?: Array<Record<string, unknown>> }).items ?? [];
			expectEqual(
				sent,
				['E2E-MAP-1', 'E2E-MAP-2'].map((sku, n) =>
					validItemBody(sku, {
						with_tags: n === 0,
						image: { front: `https://images.example.com/${sku}/front.jpg`, back: `https://images.example.com/${sku}/back.jpg` },
						price: 129999,
						gender: ['Men', 'Women'],
						...(n === 1 ? { address_id: '301' } : {}),
					}),
				),
				'items sent (contract types; prices converted from dollars; sheet-only columns left out)',
			);
			const out = outputOf(outcome, 'Create items');
			expectEqual(out.map((item) => item.status ?? 'error'), ['submitted', 'submitted', 'error'], 'output items, in input order');
			const named = 'Item index 2 (vendor_sku E2E-MAP-3): image_front must be an absolute http(s) URL';
			if (!String(out[2].error).startsWith(named)) fail(`the bad row's error does not start with "${named}": ${String(out[2].error)}`);
			const created = state.items.filter((item) => item.vendor_sku.startsWith('E2E-MAP-')).map((item) => item.vendor_sku);
			expectEqual(created.sort(), ['E2E-MAP-1', 'E2E-MAP-2'], 'items the sandbox created');
			return `2 items created from sheet rows, no expression; row 2: "${String(out[2].error).slice(0, 90)}"`;
		},
	}),
	workflowCheck({
		name: 'item Update and Create or Update Map Automatically: matched on item_id / vendor_sku; the mapper per column',
		workflow: 'item-mapped-update-upsert',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-mapped-update-upsert');
			const itemIdOf = (sku: string) => state.items.find((item) => item.vendor_sku === sku)?.item_id;
			const writes = apiRequests(requests).filter((r) => r.method !== 'GET');
			const described = writeRequests(requests).sort();
			expectEqual(
				described,
				[
					'PATCH /v1/items/50002 200',
					`PATCH /v1/items/${String(itemIdOf('SBX-1015'))} 200`,
					'POST /v1/consignments/cons_12345/items 200',
					'POST /v1/consignments/cons_12345/items 200',
				].sort(),
				'write requests (Update by the item_id column, Upsert by vendor_sku: one PATCH, one POST; the per-column Create)',
			);
			const stored = (sku: string) => state.items.find((item) => item.vendor_sku === sku);
			expectEqual([stored('SBX-1001')?.price, stored('SBX-1001')?.designer], [123400, 'Gucci'], 'Update: stored price and designer');
			expectEqual(stored('SBX-1015')?.price, 77777, 'Upsert of an existing SKU: stored price');
			expectEqual(stored('E2E-UPS-NEW-1')?.price, 199900, 'Upsert of a new SKU: created with its price');
			expectEqual(outputOf(outcome, 'Upsert mapped').map((item) => item.operation), ['updated', 'created'], 'Upsert outputs');
			const perColumn = writes.find((r) => r.method === 'POST' && JSON.stringify(r.body).includes('E2E-COL-1'));
			const [sent] = (perColumn?.body as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
			expectEqual(
				[sent?.price, sent?.msrp, sent?.gender, sent?.taxon_specific_attributes, (sent?.image as Record<string, unknown> | undefined)?.front],
				[1999, 5000, ['Women'], { color: 'Red' }, 'https://images.example.com/E2E-COL-1/front.jpg'],
				'per-column mapping: price, msrp, gender, attributes, front image sent',
			);
			return 'Update PATCHed item_id 50002, Upsert updated SBX-1015 and created E2E-UPS-NEW-1, per-column Create sent E2E-COL-1';
		},
	}),
	workflowCheck({
		name: 'item mapping at node version 1.1: the column mapper alone, automatic by default, per column, item_id for Update',
		workflow: 'item-mapped-version-1-1',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-mapped-version-1-1');
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			const skusOf = (body: unknown) => ((body as { items?: Array<{ vendor_sku?: unknown }> }).items ?? []).map((item) => item.vendor_sku);
			expectEqual(posts.map((r) => skusOf(r.body)).sort(), [['E2E-V11-1', 'E2E-V11-2'], ['E2E-V11-COL-1']], 'creation requests (SKUs sent)');
			const byDefaults = posts.find((r) => skusOf(r.body).includes('E2E-V11-1'));
			const [first, second] = (byDefaults?.body as { items: Array<Record<string, unknown>> }).items;
			expectEqual([first.price, first.gender, second.address_id, first.row_number], [129999, ['Women'], '301', undefined], 'the defaults node: read from the input');
			expectEqual(outputOf(outcome, 'Create, 1.1 defaults').map((item) => item.status), ['submitted', 'submitted'], 'the defaults node: output');
			const perColumn = posts.find((r) => skusOf(r.body).includes('E2E-V11-COL-1'));
			const [sent] = (perColumn?.body as { items: Array<Record<string, unknown>> }).items;
			expectEqual([sent.price, sent.taxon_specific_attributes], [1999, { color: 'Red' }], 'per column: price and attributes from expressions');
			const patches = apiRequests(requests).filter((r) => r.method === 'PATCH');
			expectEqual(patches.map((r) => `${r.path} ${r.status}`), ['/v1/items/50002 200'], 'Update: PATCH by the item_id column');
			const updated = state.items.find((item) => item.vendor_sku === 'SBX-1001');
			expectEqual([updated?.price, updated?.designer], [123400, 'Gucci'], 'Update: stored price and designer');
			return 'defaults node created E2E-V11-1/2 from input fields; per column created E2E-V11-COL-1; Update PATCHed 50002';
		},
	}),
	{
		name: 'item Map Automatically: the editor\'s column mapper gets the contract\'s columns from n8n at node versions 1 and 1.1 (matching on item_id / vendor_sku)',
		phase: 'server',
		async run(ctx) {
			const api = ctx.server!.api;
			const seen: string[] = [];
			const cases = [['create', undefined], ['update', 'item_id'], ['upsert', 'vendor_sku']] as const;
			// Version 1 shows the mapper under Field Mapping: Map Automatically; 1.1 always (no selector).
			for (const [version, [operation, matching]] of [...cases.map((c) => [1, c] as const), ...cases.map((c) => [1.1, c] as const)]) {
				const { fields } = await api.resourceMapperFields({
					nodeType: 'n8n-nodes-consignment-vendor.consignmentVendor',
					version,
					methodName: 'getMappingColumns',
					path: 'parameters.itemColumns',
					parameters: { resource: 'item', operation, ...(version === 1 ? { fieldMapping: 'auto' } : {}) },
				});
				const ids = fields.map((field) => field.id);
				const expected = [...(operation === 'update' ? ['item_id'] : []), ...CONTRACT_COLUMNS];
				expectEqual(ids, expected, `v${version} ${operation}: columns`);
				const required = fields.filter((field) => field.required).map((field) => field.id);
				expectEqual(required, expected.filter((id) => !OPTIONAL_COLUMNS.includes(id)), `v${version} ${operation}: required columns`);
				const matchable = fields.filter((field) => field.canBeUsedToMatch && field.defaultMatch).map((field) => field.id);
				expectEqual(matchable, matching ? [matching] : [], `v${version} ${operation}: the column it matches on`);
				seen.push(`v${version} ${operation}: ${ids.length} columns${matching ? `, matches on ${matching}` : ''}`);
			}
			return seen.join('; ');
		},
	},
	workflowCheck({
		name: 'item Preview Only: Update, Create or Update and Create say what they would do, with a run summary, and send no write',
		workflow: 'item-preview',
		verify({ outcome, requests, state, version }) {
			expectSuccess(outcome, 'item-preview');
			const writes = apiRequests(requests).filter((r) => r.method !== 'GET');
			if (writes.length) fail(`Preview Only sent ${writes.length} write request(s): ${writes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
			expectEqual(outputOf(outcome, 'Update mapped').map((i) => [i.preview, i.item_id]), [['would update', '50002']], 'Update preview');
			const upsert = outputOf(outcome, 'Upsert mapped');
			expectEqual(upsert.map((i) => [i.preview, i.vendor_sku]), [['would update', 'SBX-1015'], ['would create', 'E2E-UPS-NEW-1']], 'Create or Update preview');
			if (!(upsert[0].differs as string[] | undefined)?.includes('price')) fail(`the preview of SBX-1015 does not say its price differs: ${JSON.stringify(upsert[0])}`);
			expectEqual(outputOf(outcome, 'Create mapped per column').map((i) => i.preview), ['would create'], 'Create preview');
			if (state.items.some((item) => item.vendor_sku === 'E2E-UPS-NEW-1' || item.vendor_sku === 'E2E-COL-1')) fail('a previewed item was created');
			const hint = (node: string) => (outcome.runData?.[node]?.[0]?.hints ?? []).map((h) => h.message);
			expectEqual(hint('Upsert mapped'), ['Preview (nothing was sent): 2 items: 1 would create · 1 would update'], `run summary hint in n8n ${version}`);
			return `no write; Upsert: would update SBX-1015 (differs: ${(upsert[0].differs as string[]).join(', ')}), would create E2E-UPS-NEW-1; hint "${hint('Upsert mapped')[0]}"`;
		},
	}),
];
