import { apiRequests, describeRequests, expectEqual, expectSuccess, outputOf, writeRequests } from './expect';
import { fail, type Check } from './types';
import { workflowCheck, type WorkflowRun } from './workflow-check';

/** The run succeeded, `node` ran and the write requests were exactly `writes`; returns the node's output. */
function expectWrites({ workflow, outcome, requests }: WorkflowRun, node: string, writes: string[]): Array<Record<string, unknown>> {
	expectSuccess(outcome, workflow);
	const out = outputOf(outcome, node);
	expectEqual(writeRequests(requests), writes, 'write requests');
	return out;
}

export const addressChecks: Check[] = [
	workflowCheck({
		name: 'address Create: one POST, new active address in the output',
		workflow: 'address-create',
		verify(run) {
			const [out] = expectWrites(run, 'Create address', ['POST /v1/vendor/addresses 201']);
			const { state } = run;
			const stored = state.addresses.find((a) => a.address1 === '350 Fifth Avenue');
			if (!stored?.active) fail(`the sandbox has no active address at 350 Fifth Avenue: ${JSON.stringify(stored)}`);
			if (String(out?.address_id) !== String(stored.address_id)) fail(`output address_id ${String(out?.address_id)} is not the created ${stored.address_id}`);
			return `address ${stored.address_id} created`;
		},
	}),
	workflowCheck({
		name: 'address Update: PATCH 301 with every field',
		workflow: 'address-update',
		verify(run) {
			expectWrites(run, 'Update address', ['PATCH /v1/vendor/addresses/301 200']);
			const stored = run.state.addresses.find((a) => a.address_id === 301);
			expectEqual([stored?.phone, stored?.first_name], ['212-555-0142', 'Grace'], 'stored phone and first name of 301');
			return 'address 301 updated';
		},
	}),
	workflowCheck({
		name: 'address Delete: DELETE 304 makes it inactive',
		workflow: 'address-delete',
		verify(run) {
			expectWrites(run, 'Delete address', ['DELETE /v1/vendor/addresses/304 200']);
			expectEqual(run.state.addresses.find((a) => a.address_id === 304)?.active, false, 'address 304 active');
			return 'address 304 inactive';
		},
	}),
	workflowCheck({
		name: 'address Get Many: Return All over pages of 3',
		workflow: 'address-get-all',
		withoutSandbox(outcome) {
			expectSuccess(outcome, 'address-get-all');
			return `${outputOf(outcome, 'Get addresses').length} addresses`;
		},
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'address-get-all');
			const out = outputOf(outcome, 'Get addresses');
			expectEqual(out.map((a) => String(a.address_id)).sort(), state.addresses.map((a) => String(a.address_id)).sort(), 'address ids');
			expectEqual(apiRequests(requests).length, Math.ceil(state.addresses.length / 3), `list requests (${describeRequests(apiRequests(requests))})`);
			return `${out.length} addresses`;
		},
	}),
];

export const otherResourceChecks: Check[] = [
	workflowCheck({
		name: 'consignment Get Many: Return All over pages of 2',
		workflow: 'consignment-get-all',
		withoutSandbox(outcome) {
			expectSuccess(outcome, 'consignment-get-all');
			return `${outputOf(outcome, 'Get consignments').length} consignments`;
		},
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'consignment-get-all');
			const out = outputOf(outcome, 'Get consignments');
			expectEqual(out.map((c) => String(c.id)), ['cons_12345', '1001', 'cons_67890'], 'consignment ids');
			expectEqual(apiRequests(requests).length, 2, 'list requests');
			return `${out.length} consignments; id types ${out.map((c) => typeof c.id).join(', ')}`;
		},
	}),
	workflowCheck({
		name: 'consignment Get: 1001 (numeric-looking id)',
		workflow: 'consignment-get',
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'consignment-get');
			const [out] = outputOf(outcome, 'Get consignment');
			expectEqual(String(out?.id), '1001', 'consignment id');
			if (typeof out?.consignment_items_count !== 'number') fail(`no consignment_items_count: ${JSON.stringify(out)}`);
			expectEqual(apiRequests(requests).map((r) => r.path), ['/v1/consignments/1001'], 'requests');
			return JSON.stringify(out).slice(0, 140);
		},
	}),
	workflowCheck({
		name: 'order Cancel: POST /v1/cancellations with the platform sku',
		workflow: 'order-cancel',
		verify(run) {
			const { requests, state } = run;
			expectWrites(run, 'Cancel order', ['POST /v1/cancellations 200']);
			expectEqual((apiRequests(requests)[0].body as Record<string, unknown>)?.sku, 'TRR-ORD-000001', 'sku sent');
			expectEqual(state.orders.find((o) => o.sku === 'TRR-ORD-000001')?.status, 'cancelled', 'order status');
			return 'TRR-ORD-000001 cancelled';
		},
	}),
	workflowCheck({
		name: 'vendor Update: webhook URL and enabled flag in the contract\'s flat form',
		workflow: 'vendor-update',
		verify(run) {
			const { requests, state } = run;
			expectWrites(run, 'Update vendor', ['PATCH /v1/vendor 200']);
			expectEqual(
				[state.vendor.webhook_url, state.vendor.preferences.webhook_enabled],
				['https://hooks.example.com/previous', false],
				'vendor webhook_url and webhook_enabled',
			);
			return `PATCH body ${JSON.stringify(apiRequests(requests)[0].body)}`;
		},
	}),
];
