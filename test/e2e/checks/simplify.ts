import { expectEqual, expectSuccess, outputOf } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

/** The fields Item → Get Many Non-Approved keeps with Simplify on (nodes/ConsignmentVendor/shared/simplify.ts). */
const SIMPLIFIED_NON_APPROVED = ['condition', 'consignment_id', 'created_at', 'designer', 'item_id', 'item_status', 'price', 'quantity', 'taxon', 'updated_at', 'vendor_sku'];

const fieldsOf = (records: Array<Record<string, unknown>>) => [...new Set(records.flatMap((record) => Object.keys(record)))].sort();

// n8n itself resolves which Simplify default a node gets from its typeVersion (the `@version` display options):
// this is the check that real n8n 1.x and 2.x do so, for a node saved without the parameter.
export const simplifyChecks: Check[] = [
	workflowCheck({
		name: 'Simplify: on for a version 1.1 node by default, off when turned off, off for a version 1 node',
		workflow: 'item-get-many-simplify',
		verify({ outcome }) {
			expectSuccess(outcome, 'item-get-many-simplify');
			const simplified = outputOf(outcome, 'New node');
			const off = outputOf(outcome, 'New node, Simplify off');
			const v1 = outputOf(outcome, 'Saved before Simplify');
			if (simplified.length === 0) fail('the listing returned no items');
			expectEqual(fieldsOf(simplified), SIMPLIFIED_NON_APPROVED, 'fields of a new node (Simplify on by default)');
			for (const [label, records] of [['Simplify off', off], ['version 1', v1]] as const) {
				if (!fieldsOf(records).includes('description')) fail(`${label}: the records lack "description", so they are not whole: ${fieldsOf(records).join(', ')}`);
				expectEqual(records.map((r) => r.item_id), simplified.map((r) => r.item_id), `${label}: the same items as the simplified listing`);
			}
			return `${simplified.length} items: ${SIMPLIFIED_NON_APPROVED.length} fields simplified, ${fieldsOf(v1).length} whole`;
		},
	}),
];
