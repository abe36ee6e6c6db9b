import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { WORKFLOWS_DIR } from '../lib/templates';
import { apiRequests, expectEqual, expectSuccess, outputOf } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

const WORKFLOW = 'item-create-mapped';

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
				['E2E-MAP-1', 'E2E-MAP-2'].map((sku, n) => ({
					vendor_sku: sku,
					taxon_permalink: 'women/handbags/totes',
					condition: 'Excellent',
					with_tags: n === 0,
					designer: 'Chanel',
					image: { front: `https://images.example.com/${sku}/front.jpg`, back: `https://images.example.com/${sku}/back.jpg` },
					quantity: 2,
					msrp: 250000,
					price: 129999,
					gender: ['Men', 'Women'],
					taxon_specific_attributes: { color: 'Black', material: ['Leather'] },
					...(n === 1 ? { address_id: '301' } : {}),
				})),
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
];
