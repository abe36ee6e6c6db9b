/**
 * Issue 30 in queue mode: Output: File from a production webhook runs on a worker, where n8n 2.x keeps binary data
 * in its database (queue mode's default); the listing comes in several parts, each stored, and the parts read back
 * through the main hold every approved item exactly once.
 */
import { executionOutputItems } from '../checks/executions';
import type { QueueCheck, QueueContext } from './checks';

const WORKFLOW = 'queue-export-to-file';
const PATH = 'e2e-queue-export';
const NODE = 'Export approved items';
const EXTRA_APPROVED = 20_000;

/** Which processes ran the execution, by the worker's own log line (as checks.ts reads it). */
function workersThatRan(ctx: QueueContext, executionId: string): string[] {
	const pattern = new RegExp(`Worker started execution ${executionId} \\(job`);
	return ctx.cluster.all().filter((p) => pattern.test(p.log())).map((p) => p.name);
}

async function callExport(ctx: QueueContext): Promise<{ status: number; text: string }> {
	const res = await fetch(`${ctx.cluster.webhook.url}/webhook/${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	return { status: res.status, text: await res.text() };
}

export const listToFileQueueChecks: QueueCheck[] = [
	{
		name: 'queue: Output File of 20,026 items in parts finishes on a worker, parts in database binary storage, each item read back once',
		async run(ctx) {
			await ctx.admin.reset();
			await ctx.admin.seedManyItems({ count: EXTRA_APPROVED, status: 'approved', skuPrefix: 'Q-EXP-' });
			const approved = (await ctx.admin.state()).items.filter((i) => i.validation_status === 'approved').length;
			const id = ctx.workflowId(WORKFLOW);
			const before = new Set((await ctx.api.executions(id)).map((e) => e.id));
			await ctx.api.activate(id);
			try {
				const deadline = Date.now() + 30_000;
				let answer = await callExport(ctx);
				while (answer.status === 404 && Date.now() < deadline) {
					await new Promise((r) => setTimeout(r, 500));
					answer = await callExport(ctx);
				}
				if (answer.status !== 200) throw new Error(`the webhook answered ${answer.status}: ${answer.text.slice(0, 300)}`);
				const execution = (await ctx.api.executions(id)).find((e) => !before.has(e.id) && e.status === 'success');
				if (!execution) throw new Error('no successful execution of the export');
				const ranOn = workersThatRan(ctx, execution.id);
				if (ranOn.length !== 1 || !ranOn[0].startsWith('worker')) throw new Error(`execution ${execution.id} ran on: ${ranOn.join(', ') || 'no worker log names it'}`);
				const parts = executionOutputItems(execution, NODE);
				if (parts.length < 2) throw new Error(`expected several parts of at most 1 MB, got ${parts.length}`);
				const ids = new Set<string>();
				let lines = 0;
				for (const part of parts) {
					const binary = part.binary?.data;
					if (!binary?.id?.startsWith('database:')) throw new Error(`a part is not in n8n's database binary storage: ${JSON.stringify(binary).slice(0, 200)}`);
					const [header, ...rows] = (await ctx.api.binaryData(binary.id)).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
					if (!header.startsWith('id,item_id,')) throw new Error(`part ${String(part.json.part)} header: ${header.slice(0, 100)}`);
					if (rows.length !== part.json.records) throw new Error(`part ${String(part.json.part)}: ${rows.length} rows, its JSON says ${String(part.json.records)}`);
					lines += rows.length;
					for (const row of rows) ids.add(row.split(',')[1]);
				}
				if (lines !== approved || ids.size !== approved) throw new Error(`read back ${lines} rows, ${ids.size} distinct item ids; ${approved} approved items`);
				return `${approved} items in ${parts.length} parts (database binary storage), execution ${execution.id} on ${ranOn[0]}, each item once`;
			} finally {
				await ctx.api.deactivate(id);
			}
		},
	},
];
