/**
 * What a person does in the editor, in queue mode under n8n 3.0's defaults (cluster.ts, N8N_3_DEFAULTS): manual
 * executions run on workers, binary data lives in the database, unverified packages cannot be installed from the
 * nodes panel. Each check starts its run through the main's REST API as the editor does and reads which process ran
 * it from the workers' logs.
 */
import { expectEqual } from '../checks/expect';
import { executionItems, executionOutputItems, finishedExecutions } from '../checks/executions';
import { pollUntil, fail } from '../checks/types';
import { VendorDirect, type VendorProfile } from '../checks/vendor-direct';
import type { Execution } from '../lib/n8n-api';
import { CREDENTIAL_IDS, SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { processesThatRan, type QueueCheck, type QueueContext } from './checks';

const PACKAGE = 'n8n-nodes-consignment-vendor';
const TRIGGER = 'Consignment Vendor Trigger';
const ITEM_TRIGGER = 'Consignment Vendor Item Trigger';
const PREVIOUS = { webhook_url: 'https://hooks.example.com/vendor-own', webhook_enabled: true };
const LABEL_WORKFLOW = 'queue-label-read';
const LABEL_WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000031';

/** The editor's run of a workflow from one of its triggers (Execute workflow, Fetch Test Event, Listen for test event). */
async function runFrom(ctx: QueueContext, workflow: string, trigger: string): Promise<{ id: string; before: Set<string> }> {
	const id = ctx.workflowId(workflow);
	const before = new Set((await ctx.api.executions(id)).map((e) => e.id));
	const answer = await ctx.api.listenForTestEvent(id, trigger);
	if (answer.status !== 200) fail(`the editor's run of ${workflow} from ${trigger} answered ${answer.status}: ${answer.message}`);
	return { id, before };
}

/** The one new finished execution of `id`, once it exists, and the process that ran it (a worker). */
async function newExecutionOnWorker(ctx: QueueContext, id: string, before: Set<string>, what: string): Promise<{ execution: Execution; ranOn: string }> {
	const [execution] = await pollUntil(
		async () => (await finishedExecutions(ctx.api, id)).filter((e) => !before.has(e.id)),
		(fresh) => fresh.length > 0,
		60_000,
		() => `${what}: no finished execution within 60 s`,
	);
	const ranOn = processesThatRan(ctx, execution.id);
	if (ranOn.length !== 1 || !ranOn[0].startsWith('worker')) fail(`${what}: execution #${execution.id} (${execution.mode ?? ''}) ran on ${ranOn.join(', ') || 'no worker (the main?)'}`);
	return { execution, ranOn: ranOn[0] };
}

/**
 * The label as the workflow saw it: the trigger's binary (a `database:` id) and the bytes the next node read from the
 * database on the worker (Extract From File, base64), compared with the PDF the sandbox serves. Also whether the
 * editor can download it from the main: in database mode n8n keeps binary data a webhook wrote before its execution
 * existed under a temporary source, which the main's download route refuses (404), so that is reported, not asserted.
 */
async function labelOf(ctx: QueueContext, execution: Execution) {
	const [item] = executionOutputItems(execution, TRIGGER);
	const label = item?.binary?.label;
	if (!label) fail(`execution #${execution.id} has no label: ${JSON.stringify(item?.json ?? {}).slice(0, 300)}`);
	if (!label.id?.startsWith('database:')) fail(`the label is not stored in the database: ${JSON.stringify(label)}`);
	const [read] = executionItems(execution, 'Read label');
	const onWorker = Buffer.from(String(read?.label_base64 ?? ''), 'base64');
	const pdfUrl = String(item.json.pdf_url);
	const served = Buffer.from(await (await fetch(pdfUrl)).arrayBuffer());
	if (onWorker.length === 0 || !onWorker.equals(served)) fail(`the label the worker read (${onWorker.length} bytes) is not the ${served.length}-byte PDF at ${pdfUrl}`);
	const download = await ctx.api.binaryData(label.id).then(
		(bytes) => (bytes.equals(served) ? 'the editor downloads it' : `the editor's download differs (${bytes.length} bytes)`),
		(error: Error) => `the editor's download from the main answered ${/answered (\d+)/.exec(error.message)?.[1] ?? error.message.slice(0, 80)}`,
	);
	return `label ${onWorker.length} bytes in the database, read by the worker; ${download}`;
}

export const V3_DEFAULT_CHECKS: QueueCheck[] = [
	{
		name: 'queue 3.0 defaults: a manual Preview Only run (Execute workflow) runs on a worker, says what it would do, writes nothing',
		async run(ctx) {
			await ctx.admin.reset();
			await ctx.admin.clearRequests();
			const { id, before } = await runFrom(ctx, 'item-preview', 'Start');
			const { execution, ranOn } = await newExecutionOnWorker(ctx, id, before, 'Preview Only run');
			expectEqual([execution.mode, execution.status], ['manual', 'success'], `mode and status of execution #${execution.id}`);
			const writes = (await ctx.admin.requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));
			if (writes.length) fail(`Preview Only sent ${writes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
			const upsert = executionItems(execution, 'Upsert mapped').map((i) => `${String(i.preview)} ${String(i.vendor_sku)}`);
			expectEqual(upsert, ['would update SBX-1015', 'would create E2E-UPS-NEW-1'], 'Create or Update preview');
			expectEqual(executionItems(execution, 'Update mapped').map((i) => i.preview), ['would update'], 'Update preview');
			return `execution #${execution.id} on ${ranOn}: ${upsert.join(', ')}; no write`;
		},
	},
	{
		name: 'queue 3.0 defaults: item trigger Fetch Test Event runs on a worker: the 5 most recently updated items',
		async run(ctx) {
			await ctx.admin.reset();
			await ctx.admin.advanceClock(60);
			const { items } = await ctx.admin.state();
			const rejected = items.find((i) => i.validation_status === 'rejected')!;
			await ctx.admin.setItemStatus(rejected.item_id, 'approved');
			const { id, before } = await runFrom(ctx, 'item-trigger-poll-every-minute', ITEM_TRIGGER);
			const { execution, ranOn } = await newExecutionOnWorker(ctx, id, before, 'Fetch Test Event');
			const sample = executionItems(execution, ITEM_TRIGGER);
			expectEqual(sample.length, 5, 'items of the test event');
			expectEqual([sample[0].item_id, sample[0].status], [rejected.item_id, 'approved'], 'the item just approved first');
			return `execution #${execution.id} (${execution.mode ?? ''}) on ${ranOn}: ${sample.map((j) => `${String(j.item_id)} ${String(j.status)}`).join(', ')}`;
		},
	},
	{
		name: "queue 3.0 defaults: trigger test listening: the main puts its test URL at the vendor, the test event (label in the database) runs on a worker, the vendor's URL comes back",
		async run(ctx) {
			const vendor = new VendorDirect(ctx.target);
			await ctx.admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
			await vendor.patch(PREVIOUS);
			// Test webhook URLs are the main's own: only the main serves /webhook-test/.
			const testUrl = `${ctx.cluster.main.url}/webhook-test/${LABEL_WEBHOOK_ID}/webhook`;
			const { id, before } = await runFrom(ctx, LABEL_WORKFLOW, TRIGGER);
			try {
				await vendor.waitFor((p) => !!p.webhook_url?.startsWith(`${testUrl}?`) && p.preferences.webhook_enabled, `webhook_url on the test URL ${testUrl}?…`);
				const delivery = await ctx.admin.emitEvent({ operation: 'item_purchased', data: { vendor_sku: 'SBX-1006' } });
				if (delivery.status !== 200) fail(`the test URL answered the delivery with ${delivery.status ?? delivery.error}`);
				const { execution, ranOn } = await newExecutionOnWorker(ctx, id, before, 'test event');
				expectEqual(execution.mode, 'manual', `mode of execution #${execution.id}`);
				const label = await labelOf(ctx, execution);
				const isPrevious = (p: VendorProfile) => p.webhook_url === PREVIOUS.webhook_url && p.preferences.webhook_enabled;
				await vendor.waitFor(isPrevious, `after the test event, webhook_url back to ${PREVIOUS.webhook_url}`);
				return `test event #${execution.id} on ${ranOn}: ${label}; vendor URL restored`;
			} finally {
				await ctx.api.stopListening(id).catch(() => undefined);
			}
		},
	},
	{
		name: 'queue 3.0 defaults: label download from a production event: the webhook processor stores it in the database, the next node on the worker reads it',
		async run(ctx) {
			const vendor = new VendorDirect(ctx.target);
			await ctx.admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
			const id = ctx.workflowId(LABEL_WORKFLOW);
			const url = `${ctx.cluster.webhook.url}/webhook/${LABEL_WEBHOOK_ID}/webhook`;
			const before = new Set((await ctx.api.executions(id)).map((e) => e.id));
			await ctx.api.activate(id);
			try {
				await vendor.waitFor((p) => p.webhook_url === url && p.preferences.webhook_enabled, `webhook_url ${url}`);
				const delivery = await ctx.admin.emitEvent({ operation: 'item_purchased', data: { vendor_sku: 'SBX-1006' } });
				if (delivery.status !== 200) fail(`the webhook processor answered the delivery with ${delivery.status ?? delivery.error}`);
				const { execution, ranOn } = await newExecutionOnWorker(ctx, id, before, 'production event');
				const label = await labelOf(ctx, execution);
				return `execution #${execution.id} on ${ranOn}: ${label}`;
			} finally {
				await ctx.api.deactivate(id).catch(() => undefined);
			}
		},
	},
	{
		name: 'queue 3.0 defaults: list searches (Consignment and Address "From list") answer in the editor with the stored credential',
		async run(ctx) {
			await ctx.admin.reset();
			await ctx.admin.clearRequests();
			const search = async (methodName: string, path: string, parameters: Record<string, unknown>, filter?: string) =>
				await ctx.api.listSearch({
					nodeType: `${PACKAGE}.consignmentVendor`,
					version: 1,
					methodName,
					path,
					parameters,
					credentials: { consignmentVendorApi: { id: CREDENTIAL_IDS.good, name: 'Consignment Vendor (e2e)' } },
					filter,
				});
			const consignments = await search('searchConsignments', 'parameters.consignmentId', { resource: 'item', operation: 'create' });
			const filtered = await search('searchConsignments', 'parameters.consignmentId', { resource: 'item', operation: 'create' }, '12345');
			const addresses = await search('searchActiveAddresses', 'parameters.addressId', { resource: 'address', operation: 'update' });
			if (!consignments.results.some((r) => r.value === 'cons_12345')) fail(`the consignment list lacks cons_12345: ${JSON.stringify(consignments.results).slice(0, 300)}`);
			if (!filtered.results.length || !filtered.results.every((r) => String(r.value).includes('12345') || r.name.includes('12345'))) {
				fail(`the filter "12345" gave ${JSON.stringify(filtered.results).slice(0, 300)}`);
			}
			if (!addresses.results.length) fail('the address list is empty');
			const reads = (await ctx.admin.requests()).filter((r) => r.path.startsWith('/v1/')).map((r) => `${r.method} ${r.path} ${r.status}`);
			return `${consignments.results.length} consignments, ${filtered.results.length} for "12345", ${addresses.results.length} active addresses; requests: ${[...new Set(reads)].join(', ')}`;
		},
	},
	{
		name: 'queue 3.0 defaults: unverified packages off: installing this package from the nodes panel is refused; the copy the admin installed still loads (2.x)',
		async run(ctx) {
			const answer = await ctx.api.installCommunityPackage(PACKAGE);
			if (answer.status < 400 || !/unverified/i.test(answer.message)) fail(`installing ${PACKAGE} answered ${answer.status}: ${answer.message}`);
			const loaded = await ctx.api.typeNames('nodes');
			const ours = ['consignmentVendor', 'consignmentVendorTrigger', 'consignmentVendorItemTrigger'].map((node) => `${PACKAGE}.${node}`);
			const missing = ours.filter((name) => !loaded.includes(name));
			if (missing.length) fail(`install answered ${answer.status} "${answer.message}", but these nodes did not load: ${missing.join(', ')}`);
			return `install answered ${answer.status} "${answer.message}"; loaded: ${ours.join(', ')}`;
		},
	},
];
