/**
 * The n8n side of a bench run, in its own process (run.ts forks it): loads the in-process harness (n8n-core's
 * real WorkflowExecute and RoutingNode, test/harness) of the code under test, `argv[2]` (this working tree, or
 * the export of an older commit), so the sandbox in the parent never competes with n8n for the event loop and
 * two versions of the package never share a process.
 *
 * Protocol (IPC messages): parent → {type: 'start', sandbox}; child warms up (one Vendor → Get: n8n and the
 * package load, the credential gets its token) → {type: 'ready'}; parent sets the scenario's limits →
 * {type: 'run', workloadFile, resultFile}; child runs the workflow once, writes a ClientResult → {type: 'done'};
 * parent → {type: 'exit'}.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type * as Harness from '../test/harness';
import type { ClientResult } from './scenario';

interface SandboxInfo {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
}

type Message =
	| { type: 'start'; sandbox: SandboxInfo }
	| { type: 'run'; workloadFile: string; resultFile: string }
	| { type: 'exit' };

export interface WorkloadFile {
	parameters: INodeParameters;
	typeVersion?: number;
	inputItems: IDataObject[];
	settings?: Harness.NodeSettings;
	priorRuns?: { count: number; checkDue?: boolean };
}

const NODE_NAME = 'Consignment Vendor';
const codeRoot = process.argv[2];
// The harness of the code under test (its package.json, node and credential sources).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const harness = require(join(codeRoot, 'test', 'harness')) as typeof Harness;
let store: Harness.CredentialStore;

async function runOnce(parameters: INodeParameters, inputItems: IDataObject[], settings?: Harness.NodeSettings, staticData?: IDataObject, typeVersion?: number) {
	const workflow = harness.buildWorkflow({
		type: harness.packageNodeType('consignmentVendor'),
		name: NODE_NAME,
		typeVersion,
		parameters,
		credential: store.get('cred-1'),
		settings,
	});
	// With static data: a production execution (n8n keeps its static data), as a schedule runs it.
	return await harness.runWorkflow(workflow, { credentials: store, inputItems, ...(staticData ? { staticData, mode: 'trigger' as const } : {}) });
}

function send(message: object): void {
	process.send?.(message);
}

process.on('message', (message: Message) => {
	void (async () => {
		if (message.type === 'exit') process.exit(0);
		if (message.type === 'start') {
			store = new harness.CredentialStore([harness.sandboxCredential(message.sandbox)]);
			const warm = await runOnce({ resource: 'vendor', operation: 'get' }, [{}]);
			if (warm.error) throw new Error(`warm-up failed: ${warm.error.message}`);
			send({ type: 'ready' });
			return;
		}
		const workload = JSON.parse(readFileSync(message.workloadFile, 'utf8')) as WorkloadFile;
		const staticData: IDataObject | undefined = workload.priorRuns ? {} : undefined;
		for (let n = 0; n < (workload.priorRuns?.count ?? 0); n++) {
			const prior = await runOnce(workload.parameters, workload.inputItems, workload.settings, staticData, workload.typeVersion);
			if (prior.error) throw new Error(`prior run ${n + 1} failed: ${prior.error.message}`);
		}
		if (workload.priorRuns?.checkDue) ((staticData ?? {})[`node:${NODE_NAME}`] as IDataObject).sentItemsVerifiedAt = 0;
		const startedAt = Date.now();
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const run = await runOnce(workload.parameters, workload.inputItems, workload.settings, staticData, workload.typeVersion);
		const wallMs = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		const result: ClientResult = {
			wallMs,
			startedAt,
			cpuMs: (cpu.user + cpu.system) / 1000,
			error: run.error?.message,
			outputs: (run.outputs[NODE_NAME]?.[0] ?? []).map((item) => item.json),
			peakRssMb: process.resourceUsage().maxRSS / 1024,
		};
		writeFileSync(message.resultFile, JSON.stringify(result));
		send({ type: 'done' });
	})().catch((error: unknown) => {
		send({ type: 'failed', message: (error as Error).stack ?? String(error) });
	});
});
