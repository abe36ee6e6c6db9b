// Simplify on every list operation (derived from the registry: test/unit/registry.ts), through n8n-core against the sandbox: on by default for a node added at
// version 1.1 (only the chosen fields), off when turned off (every field), and off by default for a version 1 node,
// which is what every workflow saved before Simplify existed is (examples/ and the e2e workflows included).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, type IDataObject, type INodeParameters } from 'n8n-workflow';

import { ConsignmentVendor } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { buildWorkflow, CredentialStore, packageNodeType, runWorkflow, sandboxCredential } from '../harness';
import { LIST_OPERATIONS as REGISTERED_LIST_OPERATIONS } from '../unit/registry';
import { NODE_NAME, outputOf, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

async function list(typeVersion: number, parameters: INodeParameters): Promise<IDataObject[]> {
	const store = new CredentialStore([sandboxCredential(sandbox())]);
	const workflow = buildWorkflow({
		type: packageNodeType('consignmentVendor'),
		name: NODE_NAME,
		typeVersion,
		parameters: { returnAll: true, ...parameters },
		credential: store.get('cred-1'),
	});
	const result = await runWorkflow(workflow, { credentials: store, inputItems: [{}] });
	expect(result.error).toBeUndefined();
	const records = outputOf(result).map((item) => item.json);
	expect(records.length).toBeGreaterThan(0);
	return records;
}

const keysOf = (records: IDataObject[]) => [...new Set(records.flatMap((record) => Object.keys(record)))].sort();

describe('Simplify on a node added at version 1.1 (on by default)', () => {
	it('Item → Get Many returns ids, SKU, designer, taxon, condition, price, consignment and timestamps only', async () => {
		const full = await list(1, { resource: 'item', operation: 'getAll' });
		const simplified = await list(1.1, { resource: 'item', operation: 'getAll' });

		expect(keysOf(simplified)).toEqual(
			['condition', 'consignment_id', 'created_at', 'designer', 'id', 'item_id', 'price', 'taxon', 'updated_at', 'vendor_sku'].sort(),
		);
		// The same records, each with the chosen fields' values as returned (the description left out).
		expect(simplified).toHaveLength(full.length);
		const { description, ...chosen } = full[0];
		expect(description).toBeDefined();
		expect(simplified[0]).toEqual(chosen);
	});

	it('Item → Get Many Non-Approved keeps the status, quantity and the price object', async () => {
		const simplified = await list(1.1, { resource: 'item', operation: 'getNonApproved' });
		expect(keysOf(simplified)).toEqual(
			['condition', 'consignment_id', 'created_at', 'designer', 'item_id', 'item_status', 'price', 'quantity', 'taxon', 'updated_at', 'vendor_sku'].sort(),
		);
		expect(simplified[0].price).toEqual({ currency_code: expect.any(String), price: expect.any(String) });
	});

	it('Address → Get Many returns id, active, name, street, city, state, ZIP, country and timestamps', async () => {
		const simplified = await list(1.1, { resource: 'address', operation: 'getAll' });
		expect(keysOf(simplified)).toEqual(
			['active', 'address1', 'address_id', 'city', 'country_iso', 'created_at', 'name', 'state_abbr', 'updated_at', 'zipcode'].sort(),
		);
	});

	it('turned off, returns every field as the service sends it', async () => {
		const off = await list(1.1, { resource: 'address', operation: 'getAll', simplify: false });
		const v1 = await list(1, { resource: 'address', operation: 'getAll' });
		expect(off).toEqual(v1);
		expect(keysOf(off)).toEqual(expect.arrayContaining(['phone', 'first_name', 'last_name', 'address2', 'email']));
	});
});

describe('every list operation of the registry', () => {
	it('is found by the registry (the four of today at least, so a broken mark cannot empty the list)', () => {
		expect(REGISTERED_LIST_OPERATIONS.map(({ resource, operation }) => `${resource.name}/${operation}`)).toEqual(
			expect.arrayContaining(['item/getAll', 'item/getNonApproved', 'address/getAll', 'consignment/getAll']),
		);
	});

	it.each(REGISTERED_LIST_OPERATIONS.map(({ resource, operation, listing }) => [`${resource.name}/${operation}`, resource.name, operation, listing.simplifiedFields]))(
		'%s: Simplify keeps its own fields with their values, and only them',
		async (_name, resource, operation, simplifiedFields) => {
			const full = await list(1, { resource, operation });
			const simplified = await list(1.1, { resource, operation });
			expect(simplified).toHaveLength(full.length);
			expect(keysOf(simplified).filter((field) => !simplifiedFields.includes(field))).toEqual([]);
			expect(keysOf(simplified).length).toBeGreaterThan(0);
			simplified.forEach((record, index) => expect(record).toEqual(Object.fromEntries(Object.entries(full[index]).filter(([field]) => simplifiedFields.includes(field)))));
		},
	);
});

describe('a version 1 node (saved before Simplify existed)', () => {
	it('returns every field by default, and the chosen fields when Simplify is turned on', async () => {
		const v1 = await list(1, { resource: 'item', operation: 'getNonApproved' });
		expect(keysOf(v1)).toEqual(expect.arrayContaining(['description', 'item_status', 'quantity']));

		const optedIn = await list(1, { resource: 'item', operation: 'getNonApproved', simplify: true });
		expect(keysOf(optedIn)).not.toContain('description');
		expect(optedIn.map((record) => record.item_id)).toEqual(v1.map((record) => record.item_id));
	});
});

describe('the Simplify default n8n gives each saved node', () => {
	const description = new ConsignmentVendor().description;
	const resolvedSimplify = (parameters: INodeParameters, typeVersion: number) =>
		NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion }, description)?.simplify;
	const LIST_OPERATIONS = REGISTERED_LIST_OPERATIONS.map(({ resource, operation }) => [resource.name, operation]);

	it('is off at version 1 and on from version 1.1 (1.3 is the default for new nodes) for every list operation', () => {
		expect(description.version).toEqual([1, 1.1, 1.2, 1.3]);
		expect(description.usableAsTool).toBe(true);
		for (const [resource, operation] of LIST_OPERATIONS) {
			expect([resource, operation, resolvedSimplify({ resource, operation }, 1)]).toEqual([resource, operation, false]);
			expect([resource, operation, resolvedSimplify({ resource, operation }, 1.1)]).toEqual([resource, operation, true]);
			expect([resource, operation, resolvedSimplify({ resource, operation }, 1.2)]).toEqual([resource, operation, true]);
		}
	});

	it('is off for every version 1 list node of the examples and the e2e workflows', () => {
		const root = join(__dirname, '..', '..');
		const files = ['examples', 'test/e2e/workflows', 'test/e2e/queue/workflows'].flatMap((dir) =>
			readdirSync(join(root, dir))
				.filter((name) => name.endsWith('.json'))
				.map((name) => join(root, dir, name)),
		);
		const listNodes = files.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Array<{ type: string; typeVersion: number; parameters: INodeParameters }> };
			return workflow.nodes
				// item-get-many-simplify.json adds version 1.1 nodes on purpose (the e2e check of Simplify itself).
				.filter((node) => node.type.endsWith('.consignmentVendor') && node.typeVersion === 1)
				.filter((node) => LIST_OPERATIONS.some(([r, o]) => (node.parameters.resource ?? 'item') === r && node.parameters.operation === o))
				.map((node) => ({ file, simplify: resolvedSimplify(node.parameters, node.typeVersion) }));
		});
		expect(listNodes.length).toBeGreaterThan(3);
		expect(listNodes.filter((node) => node.simplify !== false)).toEqual([]);
	});
});
