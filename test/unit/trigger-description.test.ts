// The trigger as n8n's own package loader (n8n-core PackageDirectoryLoader) sees it: name, webhook, credential,
// what the user is told in the node, icons and codex.
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage, PACKAGE_ROOT } from '../harness/package-loader';

let description: INodeTypeDescription;

beforeAll(async () => {
	const loaded = await loadPackage();
	expect(loaded.problems.filter((p) => p.includes('ConsignmentVendorTrigger'))).toEqual([]);
	description = loaded.nodeTypes.consignmentVendorTrigger.type.description as INodeTypeDescription;
});

const notices = () => description.properties.filter((p) => p.type === 'notice').map((p) => p.displayName);
const property = (name: string) => description.properties.find((p) => p.name === name) as INodeProperties;

it('is a trigger with one POST webhook at path "webhook" that answers on receipt', () => {
	expect(description).toMatchObject({
		name: 'consignmentVendorTrigger',
		displayName: 'Consignment Vendor Trigger',
		group: ['trigger'],
		inputs: [],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
	});
});

it('tells the user about the single webhook URL per vendor and that test listening is refused while production receives', () => {
	const text = notices().join(' ');
	expect(text).toMatch(/one webhook URL per vendor/);
	expect(text).toMatch(/only one active workflow per credential/);
	expect(text).toMatch(/Listening for a test event is refused while a workflow receives the vendor's events in production/);
});

it('recommends signing', () => {
	expect(notices().join(' ')).toMatch(/Signing is recommended.*Webhook Signing Secret/);
});

it('offers every documented event, all events and other events, defaulting to all', () => {
	const events = property('events');
	expect(events.type).toBe('multiOptions');
	expect(events.default).toEqual(['*']);
	expect((events.options ?? []).map((o) => ('value' in o ? o.value : undefined)).sort()).toEqual(
		['*', 'address_creation', 'invalid_item_upload', 'item_purchased', 'other', 'successful_item_upload'].sort(),
	);
});

it('has its options with safe defaults: repeats ignored for 24 h, labels not downloaded, 20 MB, 15 s, https and public hosts only', () => {
	const options = property('options').options as INodeProperties[];
	expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
		downloadLabel: false,
		ignoreRepeatedDeliveries: true,
		includeRawBody: false,
		labelAllowPrivateHosts: false,
		labelBinaryProperty: 'data',
		labelMaxSizeMb: 20,
		labelTimeoutSeconds: 15,
		labelTrustedHosts: '',
		repeatWindowHours: 24,
	});
	for (const option of options) expect(option.description).toBeTruthy();
});

it('ships light and dark icons and its codex', () => {
	expect(description.iconUrl).toEqual({
		light: expect.stringMatching(/consignmentVendorTrigger\.svg$/),
		dark: expect.stringMatching(/consignmentVendorTrigger\.dark\.svg$/),
	});
	for (const file of ['consignmentVendorTrigger.svg', 'consignmentVendorTrigger.dark.svg']) {
		expect(existsSync(path.join(PACKAGE_ROOT, 'nodes/ConsignmentVendorTrigger', file))).toBe(true);
	}
	expect(description.codex?.categories).toEqual(['Sales']);
});
