// Shared by the Item Trigger's lifecycle tests: the file's sandbox (useSandbox), poll hosts on it that re-do n8n's
// lifecycle (test/harness/trigger/poll-host.ts; a restart forgets the package's in-process state as a new process
// would), and what the tests read back (announcements, listing requests, the saved memory).
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { forgetPollLives } from '../../nodes/ConsignmentVendorItemTrigger/pollLifecycle';
import { CredentialStore, sandboxCredential } from '../harness/credential-store';
import { startPollHost, type N8nLine, type PollHost } from '../harness/trigger';
import type { RequestLogEntry } from '../sandbox';
import { useSandbox } from './nodeRun.helpers';

export interface ItemTriggerHostOptions {
	parameters?: INodeParameters;
	n8n?: N8nLine;
	typeVersion?: number;
	credentials?: CredentialStore;
}

/** `event item_id previous->status`, and ` (previous unknown)` when the event says its previous status is unknown. */
export const summary = (items: INodeExecutionData[] | null) =>
	(items ?? []).map(
		({ json }) =>
			`${String(json.event)} ${String(json.item_id)} ${String(json.previous_status)}->${String(json.status)}${json.previous_status_unknown === true ? ' (previous unknown)' : ''}`,
	);

/** Every announcement of every execution the host started, sorted. */
export const allAnnounced = (trigger: PollHost) => trigger.executions.flatMap(summary).sort();

export const listingRequests = (log: RequestLogEntry[]) => log.filter((r) => r.path.startsWith('/v1/items'));

/** The memory as n8n's database holds it. */
export const memoryOf = (trigger: PollHost) =>
	(trigger.savedStaticData['node:Consignment Vendor Item Trigger'] as { itemStatuses?: { v: number } } | undefined)?.itemStatuses;

export function useItemTriggerSandbox() {
	const sandbox = useSandbox();
	const admin = () => sandbox().admin;
	beforeEach(() => forgetPollLives());

	async function host(options: ItemTriggerHostOptions = {}): Promise<PollHost> {
		return await startPollHost({
			credentials: options.credentials ?? new CredentialStore([sandboxCredential(sandbox())]),
			parameters: options.parameters ?? {},
			n8n: options.n8n,
			typeVersion: options.typeVersion,
			onNewProcess: forgetPollLives,
		});
	}

	async function listingRequestCount(): Promise<number> {
		return listingRequests(await admin().requests()).length;
	}

	/** Resolves once the sandbox has answered `count` listing requests (counted since the last clearRequests). */
	async function answeredListingRequests(count: number, timeoutMs = 10_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while ((await listingRequestCount()) < count) {
			if (Date.now() > deadline) throw new Error(`the sandbox answered fewer than ${count} listing requests within ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}

	/**
	 * Starts a poll whose listing requests after the first `skip` (default `answered`; counted from here, on paths
	 * starting with `pathPrefix`) take `holdMs` longer, `held` of them (2: the next page of each listing, which are
	 * read side by side), and resolves once the sandbox has answered `answered` listing requests: the poll is then
	 * reading, for the test to replace or end its activation, or to change items. `tick` is the poll's own promise.
	 */
	async function pollHeldMidRead(
		trigger: PollHost,
		answered: number,
		holdMs: number,
		{ held = 1, pathPrefix = '/v1/items', skip = answered }: { held?: number; pathPrefix?: string; skip?: number } = {},
	): Promise<{ tick: ReturnType<PollHost['poll']> }> {
		await admin().clearRequests();
		await admin().addFault({ kind: 'latency', ms: holdMs, pathPrefix, skip, count: held });
		const tick = trigger.poll();
		await answeredListingRequests(answered);
		return { tick };
	}

	async function firstIds(): Promise<Record<'approved' | 'pending' | 'rejected' | 'deleted', number>> {
		const { items } = await admin().state();
		const first = (status: string) => items.find((i) => i.validation_status === status)!.item_id;
		return { approved: first('approved'), pending: first('pending'), rejected: first('rejected'), deleted: first('deleted') };
	}

	/**
	 * The catalogue was made before the trigger is activated: the service's clock moves on 10 minutes (more than the
	 * trigger's margin, serviceClock.ts), so that items seeded just now are not "changed after the trigger started
	 * watching".
	 */
	async function catalogueMadeEarlier(): Promise<void> {
		await admin().advanceClock(600);
	}

	/** Seeds a catalogue whose listings take more than one page each (the seeded 26 + 26, plus these), made earlier. */
	async function seedLargeCatalogue(extraEach = 1_000): Promise<{ lastPending: number; lastApproved: number }> {
		const pending = await admin().seedManyItems({ count: extraEach, status: 'pending', skuPrefix: 'LC-P-' });
		const approved = await admin().seedManyItems({ count: extraEach, status: 'approved', skuPrefix: 'LC-A-' });
		await catalogueMadeEarlier();
		return { lastPending: pending.first_item_id + extraEach - 1, lastApproved: approved.first_item_id + extraEach - 1 };
	}

	return {
		sandbox,
		admin,
		host,
		listingRequestCount,
		pollHeldMidRead,
		firstIds,
		catalogueMadeEarlier,
		seedLargeCatalogue,
	};
}
