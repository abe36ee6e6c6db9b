// Plays an Item Trigger history against the sandbox, through n8n's lifecycle as test/harness/trigger/poll-host.ts
// re-does it (n8n-core's real PollContext; n8n 1.x's or 2.x's handling of a replaced activation; static data saved
// after the activation's poll and when a poll emits; a restart is a new process), and writes what happened into
// the ledger. Modelling choices:
// - "While a listing is on the wire": that listing's page (the second one of a large catalogue's scheduled poll, the
//   only one otherwise) is answered HOLD_MS late; the change is made once the other requests of the read were
//   answered. Under load the change may land elsewhere in the read: the ledger's windows hold either way.
// - The first activation comes well after the last change: the trigger's margin (docs/item-trigger.md, Clocks: 60 s
//   on the service's `Date`, or 5 minutes on n8n's clock when the service sends none, plus the clocks' difference)
//   announces an item changed just before it, a documented price, not a fault.
// - The service's clock may be apart from n8n's (drawn): set once, after which the history's waits move both alike
//   (while it stands still, n8n's clock also runs on with the history's real seconds, within the margins' slack).
// - Time passes for n8n and the service together (../world.ts's history clock): tokens expire on both sides. The
//   service's clock runs with real time, or (drawn) stands still between the history's waits: then every read of
//   those steps is in one second of its `Date`, and each write takes a millisecond (record times stay ordered).
// - Settling waits out the service's listing delay first: an item it has not listed yet cannot be announced.
import type { IDataObject } from 'n8n-workflow';

import { forgetPollLives } from '../../../nodes/ConsignmentVendorItemTrigger/pollLifecycle';
import { N8N_CLOCK_MARGIN_MS } from '../../../nodes/ConsignmentVendorItemTrigger/serviceClock';
import { CredentialStore, sandboxCredential } from '../../harness/credential-store';
import { startPollHost, type PollHost } from '../../harness/trigger';
import { forgetPackageProcessMemory } from '../../integration/nodeRun.helpers';
import type { RunningSandbox } from '../../sandbox';
import type { ItemStatus } from '../../sandbox/types';
import { advanceHistoryClock } from '../world';
import { StatusLedger } from './ledger';
import { rewriteAsOlderMemory } from './older-memory';
import { describeStep, type Change, type HistorySetup, type Listing, type MidRead, type Step } from './steps';

const HOLD_MS = 150;
/** Items beyond the seeded 26 + 26 per listing in a large catalogue: two pages each. */
const LARGE_EXTRA = 110;
const SETTLING_TICKS = 3;
const PATHS: Record<Listing, string> = { approved: '/v1/items', non_approved: '/v1/items/non_approved' };

function newProcess(): void {
	forgetPollLives();
	forgetPackageProcessMemory();
}

export class TriggerWorld {
	ledger = new StatusLedger();
	lines: string[] = [];
	private trigger!: PollHost;
	private setup!: HistorySetup;
	/** Items the steps name (by index): the first of each seeded status, the last of each large listing, new ones. */
	private pool: string[] = [];
	private createdCount = 0;
	private steps = 0;
	private process = 0;
	/** The counter before the last step after which n8n saved static data (ledger.ts `upgrade`). */
	private savedReadFrom = 0;

	constructor(private readonly sandbox: RunningSandbox) {}

	private get admin() {
		return this.sandbox.admin;
	}

	async reset(setup: HistorySetup): Promise<void> {
		this.setup = setup;
		this.ledger = new StatusLedger();
		this.ledger.listingDelaySeconds = setup.listingDelaySeconds;
		this.ledger.events = setup.events;
		this.ledger.statuses = setup.statuses;
		this.lines = [];
		this.pool = [];
		this.createdCount = 0;
		this.steps = 0;
		this.process = 0;
		this.savedReadFrom = 0;
		newProcess();
		await this.admin.reset();
		if (setup.serviceClock === 'perStep') {
			// At the start of a second: the millisecond each write takes (beforeWrite) stays within it until a wait.
			const frozenAt = Date.parse(await this.admin.freezeClock());
			await this.admin.advanceClock(-(frozenAt % 1000) / 1000);
		}
		// Whole seconds: a clock standing still stays at the start of a second.
		if (setup.serviceClockApart.seconds !== 0) await this.admin.advanceClock(setup.serviceClockApart.seconds);
		if (!setup.serviceClockApart.dated) await this.admin.sendDateHeader(false);
		await this.admin.setItemSettings({ listingDelaySeconds: setup.listingDelaySeconds });
		const extra: string[] = [];
		if (setup.catalogue === 'large') {
			for (const status of ['pending', 'approved'] as const) {
				const seeded = await this.admin.seedManyItems({ count: LARGE_EXTRA, status, skuPrefix: `H-${status}-` });
				extra.push(String(seeded.first_item_id + LARGE_EXTRA - 1));
			}
		}
		// A service clock set back is past its seeded items' times again before anything happens (none from its future).
		await this.passTime(Math.max(600, this.quietBeforeWatching()) + Math.max(0, -setup.serviceClockApart.seconds));
		const { items } = await this.admin.state();
		for (const item of items) this.ledger.existing(String(item.item_id), item.validation_status);
		for (const status of ['pending', 'approved', 'rejected', 'deleted']) {
			this.pool.push(String(items.find((i) => i.validation_status === status)!.item_id));
		}
		this.pool.push(...extra);
		this.trigger = await startPollHost({
			credentials: new CredentialStore([sandboxCredential(this.sandbox)]),
			n8n: setup.line,
			parameters: { events: setup.events === 'both' ? ['new_item', 'status_changed'] : [setup.events], statuses: setup.statuses },
			onNewProcess: newProcess,
		});
	}

	/** Plays one step; its line (with what it announced) goes into `lines`. */
	async play(step: Step): Promise<void> {
		const index = this.steps++;
		const from = this.ledger.seq;
		const announcedBefore = this.trigger.started.length;
		const pollsBefore = this.trigger.polls.length;
		const savesBefore = this.trigger.staticDataSaves;
		if (step.kind === 'restart' || step.kind === 'upgrade') this.process++;
		this.ledger.processOfStep[index] = this.process;
		const note = await this.run(step);
		const ticks = this.trigger.polls.slice(pollsBefore).filter((poll) => poll.activation === 'tick');
		if ((step.kind === 'tick' || step.kind === 'overlappingTicks') && ticks.length > 0 && ticks.every((poll) => poll.error === undefined)) {
			this.ledger.completeTicks.push({ from, to: this.ledger.seq, step: index, process: this.process, clock: this.ledger.clock });
		}
		if (this.trigger.staticDataSaves > savesBefore) this.savedReadFrom = from;
		this.takeAnnouncements(index, from, announcedBefore);
		const announced = this.trigger.started.slice(announcedBefore).flatMap((e) => e.items.map(({ json }) => `${String(json.event)} ${String(json.item_id)} ${String(json.previous_status)}->${String(json.status)}`));
		this.lines.push(`${index + 1}. ${describeStep(step)}${note ? ` [${note}]` : ''}${announced.length ? ` => ${announced.join(', ')}` : ''}`);
	}

	/** The end of the history: faults gone, the workflow active, quiet ticks until every change had its polls. */
	async settle(): Promise<void> {
		await this.admin.clearFaults();
		await this.admin.clearLatency();
		if (this.setup.listingDelaySeconds > 0) await this.play({ kind: 'wait', seconds: this.setup.listingDelaySeconds + 1 });
		if (!this.trigger.isActive) await this.play({ kind: 'activate' });
		for (let tick = 0; tick < SETTLING_TICKS; tick++) await this.play({ kind: 'tick' });
	}

	private async run(step: Step): Promise<string | undefined> {
		switch (step.kind) {
			case 'change':
				await this.change(step.change);
				return undefined;
			case 'revert': {
				const id = this.pool[step.item % this.pool.length];
				const before = this.ledger.statusBefore(id);
				if (before === undefined) return 'it never changed';
				await this.beforeWrite();
				await this.admin.setItemStatus(id, before as ItemStatus);
				this.ledger.changed(id, before);
				return `${id} -> ${before}`;
			}
			case 'create': {
				await this.beforeWrite();
				const [created] = await this.admin.seedItems({ count: 1, skuPrefix: `H-NEW-${++this.createdCount}-` });
				this.ledger.created(String(created.item_id), 'pending');
				this.pool.push(String(created.item_id));
				return `item #${this.pool.length - 1} = ${created.item_id}`;
			}
			case 'wait':
				await this.passTime(step.seconds);
				return undefined;
			case 'activate':
				if (this.trigger.isActive) return 'already active';
				if (this.ledger.watchStart === undefined) await this.passTime(this.quietBeforeWatching());
				return await this.read('activation', step.midRead, async () => {
					await this.trigger.activate();
				});
			case 'tick':
				if (!this.trigger.isActive) return 'inactive: no tick';
				return await this.read('tick', step.midRead, async () => {
					await this.trigger.poll();
				});
			case 'overlappingTicks': {
				if (!this.trigger.isActive) return 'inactive: no tick';
				let second: Promise<unknown> | undefined;
				const note = await this.read('tick', step.midRead, async (reading) => {
					const first = this.trigger.poll();
					await reading;
					second = this.trigger.poll();
					await first;
				});
				await second;
				return note;
			}
			case 'failingTick': {
				if (!this.trigger.isActive) return 'inactive: no tick';
				await this.admin.addFault({ kind: 'status', status: 403, path: PATHS[step.listing], count: 1 });
				const note = await this.read('tick', undefined, async () => {
					await this.trigger.poll();
				});
				await this.admin.clearFaults();
				return note ?? (this.trigger.polls.at(-1)?.error ? 'the poll failed' : 'the poll did not fail');
			}
			case 'deactivate':
				if (!this.trigger.isActive) return 'already inactive';
				this.trigger.deactivate();
				return undefined;
			case 'deactivateMidRead':
				if (!this.trigger.isActive) return 'already inactive';
				// n8n 1.x lets the running poll complete (its execution starts after the deactivation); 2.41 discards it.
				return await this.read('tick', step.midRead, async (reading) => {
					const tick = this.trigger.poll();
					await reading;
					this.trigger.deactivate();
					await tick;
				});
			case 'republish':
				if (!this.trigger.isActive) return 'inactive: nothing to re-publish';
				return await this.read('activation', undefined, async () => {
					await this.trigger.activate('update');
				});
			case 'republishMidRead': {
				if (!this.trigger.isActive) return 'inactive: no tick';
				return await this.read('tick', step.midRead, async (reading) => {
					const tick = this.trigger.poll();
					await reading;
					this.trigger.deactivate();
					await this.trigger.activate();
					await tick;
				});
			}
			case 'restart':
				return await this.restart();
			case 'upgrade': {
				// One upgrade per history: a later one would be a downgrade first, which the node does not promise.
				if (this.ledger.upgrade !== undefined) return `upgraded already: a plain restart${this.noteOf(await this.restart())}`;
				const loss = rewriteAsOlderMemory(this.trigger.savedStaticData, step.from);
				if (loss === undefined) return `no memory saved yet: a plain restart${this.noteOf(await this.restart())}`;
				this.ledger.upgrade = { step: this.steps - 1, seq: this.ledger.seq, savedReadFrom: this.savedReadFrom, ...loss };
				return await this.restart();
			}
		}
	}

	private noteOf(note: string | undefined): string {
		return note === undefined ? '' : `; ${note}`;
	}

	/** n8n stopping and starting again (a new process); at start-up it activates the workflow if it is active. */
	private async restart(): Promise<string | undefined> {
		if (!this.trigger.isActive) {
			newProcess();
			return 'the workflow is inactive: nothing runs at start-up';
		}
		return await this.read('activation', undefined, async () => {
			await this.trigger.restart();
		});
	}

	/**
	 * Seconds without a change before the trigger first starts watching: more than its margin (serviceClock.ts), so
	 * that nothing changed before it is announced (the documented price of the margin, not a fault).
	 */
	private quietBeforeWatching(): number {
		const { seconds, dated } = this.setup.serviceClockApart;
		return dated ? 120 : N8N_CLOCK_MARGIN_MS / 1000 + Math.abs(seconds) + 60;
	}

	/**
	 * With the service's clock standing still, each write takes one millisecond on it: an item changed after its
	 * creation has a later `updated_at` (statusDiff.ts tells such an item by it), while every `Date` stays in the second.
	 */
	private async beforeWrite(): Promise<void> {
		if (this.setup.serviceClock === 'perStep') await this.admin.advanceClock(0.001);
	}

	/** Time passing for n8n and the service together (the service's clock moved by hand when it stands still). */
	private async passTime(seconds: number): Promise<void> {
		advanceHistoryClock(seconds);
		if (this.setup.serviceClock === 'perStep') await this.admin.advanceClock(seconds);
		this.ledger.clock += seconds;
	}

	private async change(change: Change): Promise<void> {
		const id = this.pool[change.item % this.pool.length];
		await this.beforeWrite();
		await this.admin.setItemStatus(id, change.status as ItemStatus);
		this.ledger.changed(id, change.status);
	}

	/**
	 * Runs `body` (which reads the listings) as one read window. With `midRead`, the held listing's page is answered
	 * late and the change is made once the read's other requests were answered; `body` gets a promise of that moment
	 * (after the change). An activation that fails is not the trigger starting to watch.
	 */
	private async read(kind: 'activation' | 'tick', midRead: MidRead | undefined, body: (reading: Promise<void>) => Promise<void>): Promise<string | undefined> {
		const from = this.ledger.seq;
		let note: string | undefined;
		let reading: Promise<void> = Promise.resolve();
		if (midRead !== undefined) {
			await this.admin.clearRequests();
			const secondPage = kind === 'tick' && this.setup.catalogue === 'large';
			await this.admin.addFault({ kind: 'latency', ms: HOLD_MS, path: PATHS[midRead.held], skip: secondPage ? 1 : 0, count: 1 });
			const others = kind === 'activation' ? 1 : this.pagesPerListing() * 2 - 1;
			reading = this.answered(others).then(async (inTime) => {
				if (!inTime) note = 'the change came late';
				await this.change(midRead.change);
			});
		}
		try {
			await body(reading);
			await reading;
		} catch (error) {
			await reading;
			this.ledger.reads.push({ from, to: this.ledger.seq });
			if (kind === 'activation') return `the activation failed: ${(error as Error).message}`;
			throw error;
		}
		const window = { from, to: this.ledger.seq };
		this.ledger.reads.push(window);
		if (kind === 'activation' && this.ledger.watchStart === undefined) this.ledger.watchStart = window;
		if (kind === 'activation' && this.setup.catalogue === 'small') this.ledger.completeActivations.push({ ...window, step: this.steps - 1, clock: this.ledger.clock });
		return note;
	}

	private pagesPerListing(): number {
		return this.setup.catalogue === 'large' ? 2 : 1;
	}

	/** Resolves true once the sandbox answered `count` listing requests, or false after 3 s. */
	private async answered(count: number): Promise<boolean> {
		const deadline = Date.now() + 3_000;
		for (;;) {
			const log = await this.admin.requests();
			if (log.filter((r) => r.path.startsWith('/v1/items')).length >= count) return true;
			if (Date.now() > deadline) return false;
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
	}

	private takeAnnouncements(step: number, from: number, startedBefore: number): void {
		for (const execution of this.trigger.started.slice(startedBefore)) {
			for (const { json } of execution.items) {
				this.ledger.announcements.push({
					id: String((json as IDataObject).item_id),
					event: String(json.event),
					previous: typeof json.previous_status === 'string' ? json.previous_status : null,
					previousUnknown: json.previous_status_unknown === true,
					status: String(json.status),
					step,
					from,
					to: this.ledger.seq,
				});
			}
		}
	}
}
