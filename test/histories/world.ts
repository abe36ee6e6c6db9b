// The world a history is played in: one sandbox account, an n8n process running the package's node through n8n-core
// (the harness), and what n8n keeps between runs. Modelled as n8n does it:
// - a workflow's static data is read when a run starts and saved WHOLE when a production run ends, if the run changed
//   it (n8n-core's `__dataChanged`); manual runs are not saved; of two overlapping runs the last to end wins;
// - a restart empties the process (the package's in-process memories, token cache, request queues);
// - a node keeps its id when renamed, and its static data is stored under its name;
// - time passes for n8n and the service alike (Date.now, which the sandbox clock also reads, moved forward).
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { buildWorkflow, CredentialStore, forgetSchedulers, packageNodeType, runWorkflow, sandboxCredential } from '../harness';
import { forgetPackageProcessMemory } from '../integration/nodeRun.helpers';
import type { RequestLogEntry, RunningSandbox, SandboxStateSnapshot } from '../sandbox';
import { LOST_ANSWER_LATENCY_MS, prepareRun, type InputRow } from './runs';
import type { RunSpec, ServiceSetup } from './steps';

/** What one run did, seen from the user (output, error) and from the service (state before and after, requests). */
export interface RunRecord {
	spec: RunSpec;
	label: string;
	nodeKey: string;
	rows: InputRow[];
	outputs: IDataObject[];
	error?: { message: string; description: string };
	before: SandboxStateSnapshot;
	after: SandboxStateSnapshot;
	/** This run's requests; for overlapping runs, the whole group's (the sandbox cannot tell them apart). */
	requests: RequestLogEntry[];
	/** Other runs that overlapped this one. */
	overlapped: RunRecord[];
	/** Epoch ms (history clock) when the run ended. */
	endedAt: number;
}

const realNow = Date.now.bind(Date);
let clockOffsetMs = 0;
/** Moves n8n's clock and the sandbox's together (the sandbox clock is Date.now plus its own offset); returns the undo. */
/** Time passing for n8n and the sandbox together (after installHistoryClock). */
export function advanceHistoryClock(seconds: number): void {
	clockOffsetMs += seconds * 1000;
}

export function installHistoryClock(): () => void {
	Date.now = () => realNow() + clockOffsetMs;
	return () => {
		Date.now = realNow;
		clockOffsetMs = 0;
	};
}

const OPERATION_NODE_NAMES: Record<RunSpec['operation'], string> = {
	upsert: 'Create or Update',
	create: 'Create',
	itemUpdate: 'Update Item',
	addressCreate: 'Create Address',
	addressUpdate: 'Update Address',
	addressDelete: 'Delete Address',
	orderCancel: 'Cancel Order',
};

const isTokenExchange = (request: RequestLogEntry) => request.path.startsWith('/auth/');

export class World {
	store!: CredentialStore;

	private staticData = new Map<number, IDataObject>();

	private renames = new Map<string, number>();

	constructor(readonly sandbox: RunningSandbox) {}

	async reset(setup: ServiceSetup): Promise<void> {
		clockOffsetMs = 0;
		await this.sandbox.admin.reset();
		await this.sandbox.admin.setItemSettings({ listingDelaySeconds: setup.listingDelaySeconds, allowDuplicateSkus: true, numericSkusAsNumbers: setup.numericSkusAsNumbers });
		this.restartProcess();
		this.store = new CredentialStore([sandboxCredential(this.sandbox)]);
		this.staticData.clear();
		this.renames.clear();
	}

	/** Everything the package keeps in the n8n process. */
	restartProcess(): void {
		forgetPackageProcessMemory();
	}

	advanceTime(seconds: number): void {
		advanceHistoryClock(seconds);
	}

	rename(workflow: number, node: number): void {
		const key = `${workflow}/upsert/${node}`;
		this.renames.set(key, (this.renames.get(key) ?? 0) + 1);
	}

	nodeName(run: Pick<RunSpec, 'workflow' | 'operation' | 'node'>): string {
		const base = `${OPERATION_NODE_NAMES[run.operation]}${run.node > 0 ? ` ${run.node + 1}` : ''}`;
		const renamed = this.renames.get(`${run.workflow}/${run.operation}/${run.node}`) ?? 0;
		return renamed === 0 ? base : `${base} (renamed ${renamed})`;
	}

	async state(): Promise<SandboxStateSnapshot> {
		return await this.sandbox.admin.state();
	}

	/** Runs started `gapMs` apart, all awaited; each record's requests are the group's. */
	async runGroup(specs: RunSpec[], gapMs: number, latencyMs: number): Promise<RunRecord[]> {
		const before = await this.state();
		await this.sandbox.admin.clearRequests();
		if (latencyMs > 0) await this.sandbox.admin.setLatency(latencyMs);
		const started: Array<Promise<Omit<RunRecord, 'requests' | 'after' | 'overlapped'>>> = [];
		for (const [index, spec] of specs.entries()) {
			if (index > 0 && gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
			const running = this.execute(spec, before, index);
			// Handled at once: a run that fails while the next one waits to start is no unhandled rejection (Promise.all
			// below still reports it); n8n-core's regex timeout on a starved CPU did that and ended the process.
			running.catch(() => undefined);
			started.push(running);
		}
		const done = await Promise.all(started);
		if (latencyMs > 0) await this.sandbox.admin.clearLatency();
		const lostAnswers = specs.reduce((count, spec) => count + spec.faults.filter((fault) => fault.kind === 'lostAnswer').length, 0);
		if (lostAnswers > 0) {
			// The write whose answer was lost is carried out after the run gave up on it: waited for, or it would land in
			// the next step's (or the next history's) state. Latency faults on one request add up.
			await new Promise((resolve) => setTimeout(resolve, lostAnswers * LOST_ANSWER_LATENCY_MS + 100));
		}
		const requests = (await this.sandbox.admin.requests()).filter((request) => !isTokenExchange(request));
		await this.sandbox.admin.clearFaults();
		const after = await this.state();
		const records: RunRecord[] = done.map((record) => ({ ...record, requests, after, overlapped: [] }));
		for (const record of records) record.overlapped = records.filter((other) => other !== record);
		// HISTORY_DEBUG=1 (with --seed): what each run sent and said, to read a replayed failure.
		if (process.env.HISTORY_DEBUG) {
			console.log(JSON.stringify({ requests: requests.map((r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body ?? '').slice(0, 120)}`), outputs: records.map((r) => r.outputs.map((o) => JSON.stringify(o).slice(0, 200))) }, null, 1));
		}
		if (specs.some((spec) => spec.crash)) this.restartProcess();
		// The pace the queue learned from a 429 would slow every later run of the history (as in n8n, until a restart):
		// it decides no outcome, so it is forgotten to keep the history's budget for histories.
		else if (specs.some((spec) => spec.faults.some((fault) => fault.kind === 'tooManyRequests'))) forgetSchedulers();
		return records;
	}

	private async execute(spec: RunSpec, before: SandboxStateSnapshot, index: number): Promise<Omit<RunRecord, 'requests' | 'after' | 'overlapped'>> {
		const prepared = prepareRun(spec, before);
		const base = { spec, nodeKey: `${spec.workflow}/${spec.operation}/${spec.node}`, rows: prepared.rows, before };
		// Nothing to update, delete or cancel (none was created): the user has no row to run.
		if (prepared.rows.length === 0) return { ...base, label: `run ${index + 1} (not run: no row)`, outputs: [], endedAt: Date.now() };
		for (const fault of prepared.faults) await this.sandbox.admin.addFault(fault);
		const name = this.nodeName(spec);
		const workflow = buildWorkflow({
			type: packageNodeType('consignmentVendor'),
			name,
			typeVersion: prepared.typeVersion,
			parameters: prepared.parameters,
			credential: this.store.get('cred-1'),
			settings: prepared.settings,
		});
		// n8n keeps a node's id through renames; its static data goes by its name.
		workflow.nodes[workflow.nodes.length - 1].id = `history-${spec.workflow}-${spec.operation}-${spec.node}`;
		// Read at the start of the run, as n8n loads the workflow.
		const staticData = JSON.parse(JSON.stringify(this.staticData.get(spec.workflow) ?? {})) as IDataObject;
		const result = await runWorkflow(workflow, {
			credentials: this.store,
			inputItems: prepared.rows.map((row) => row.json),
			staticData,
			mode: spec.manual ? 'manual' : 'trigger',
			workflowId: `history-workflow-${spec.workflow}`,
		});
		// Saved whole when a production run changed it; a crash saves nothing.
		if (!spec.manual && !spec.crash && (staticData as { __dataChanged?: boolean }).__dataChanged === true) {
			this.staticData.set(spec.workflow, JSON.parse(JSON.stringify(staticData)) as IDataObject);
		}
		const outputs = (result.outputs[name]?.[0] ?? []).map((item: INodeExecutionData) => item.json);
		const error = result.error
			? { message: result.error.message, description: String((result.error as { description?: unknown }).description ?? '') }
			: undefined;
		return { ...base, label: `run ${index + 1} (${name})`, outputs, error, endedAt: Date.now() };
	}
}
