/**
 * What one call of poll() does (n8n's lifecycle around it: pollLifecycle.ts):
 * - the activation's poll (n8n waits for it; also at start-up) reads only the first page of each listing, through
 *   the queue's lane that goes ahead of bulk work. When those pages are the whole catalogue it is a complete poll
 *   (a baseline, or a comparison with the saved memory). Otherwise it leaves a saved memory alone for the first
 *   scheduled poll to compare with, or, with no memory, records what it read as a partial baseline;
 * - a scheduled poll reads both listings to their end and compares them with the memory;
 * - a superseded poll (its activation was replaced) stops, writes nothing and returns nothing;
 * - Fetch Test Event (mode `manual`) returns up to 5 items of the listings' first pages, shaped as events, without
 *   touching the memory.
 * n8n saves static data when a poll returns events (before their execution starts) and after the activation's poll;
 * a poll that returns nothing saves nothing (1.x; 2.41.1 too, outside its durable scheduler), so its memory is
 * saved with the next poll that returns events. An event is announced once: the memory that includes it is saved
 * before its execution.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { toNodeApiError } from '../shared/errors';
import { forgetCredentialTarget } from '../shared/transport';
import { eventOutput } from './eventShape';
import { beginPoll, type PollTurn } from './pollLifecycle';
import { accountOf, readItemStatuses } from './readItemStatuses';
import { StatusDiff, type ItemEvent, type ItemEventName } from './statusDiff';
import { encodeStatusMemory, readStatusMemory, sameStatuses, writesOf } from './statusMemory';

/** The memory's key in the node's static data. */
export const MEMORY_KEY = 'itemStatuses';
/** How many items Fetch Test Event returns. */
const TEST_EVENT_COUNT = 5;

interface EventFilter {
	events: ItemEventName[];
	/** Lower-cased; empty = any status. */
	statuses: string[];
}

function readFilter(context: IPollFunctions): EventFilter {
	const events = context.getNodeParameter('events', []) as ItemEventName[];
	const statuses = (context.getNodeParameter('statuses', []) as string[]).map((status) => status.toLowerCase());
	return { events, statuses };
}

const matches = (filter: EventFilter, event: ItemEventName, status: string) =>
	filter.events.includes(event) && (filter.statuses.length === 0 || filter.statuses.includes(status));

/**
 * What the workflow gets of one event: itself when the filters take it; a `new_item` that may hide a change an
 * earlier process's unsaved poll saw (statusDiff.ts `unseenChange`) as that change, from an unknown status, when the
 * workflow takes changes but not new items; otherwise nothing.
 */
function announced(filter: EventFilter, event: ItemEvent): ItemEvent[] {
	if (matches(filter, event.event, event.status)) return [event];
	if (event.unseenChange === true && matches(filter, 'status_changed', event.status)) {
		return [{ ...event, event: 'status_changed', previousStatus: null, previousStatusUnknown: true }];
	}
	return [];
}

const updatedAt = (record: IDataObject) => {
	const time = typeof record.updated_at === 'string' ? Date.parse(record.updated_at) : NaN;
	return Number.isNaN(time) ? -Infinity : time;
};

function outputOf(context: IPollFunctions, events: ItemEvent[]): INodeExecutionData[][] | null {
	const version = context.getNode().typeVersion;
	return events.length > 0 ? [events.map((event) => eventOutput(event, version))] : null;
}

async function testEvents(context: IPollFunctions, filter: EventFilter): Promise<INodeExecutionData[][] | null> {
	// A sample needs no memory: the latest items of the first pages, shaped as the events the workflow will get.
	const event: ItemEventName = filter.events.includes('new_item') || filter.events.length === 0 ? 'new_item' : 'status_changed';
	const latest: ItemEvent[] = [];
	await readItemStatuses(
		context,
		(item) => {
			if (filter.statuses.length > 0 && !filter.statuses.includes(item.status)) return;
			latest.push({ event, id: item.id, previousStatus: null, status: item.status, record: item.record });
			latest.sort((a, b) => updatedAt(b.record) - updatedAt(a.record));
			if (latest.length > TEST_EVENT_COUNT) latest.pop();
		},
		{ firstPagesOnly: true },
	);
	return outputOf(context, latest);
}

async function poll(context: IPollFunctions, turn: PollTurn, filter: EventFilter): Promise<INodeExecutionData[][] | null> {
	const activation = turn.kind === 'activation';
	const staticData = context.getWorkflowStaticData('node');
	if (activation) {
		// A re-activation loads the saved memory; a later one n8n did not save is taken over (and saved after this poll).
		const successor = turn.unsavedSuccessor(staticData[MEMORY_KEY]);
		if (successor !== undefined) staticData[MEMORY_KEY] = successor as IDataObject;
		// n8n started: the saved memory may be older than the earlier process's last polls, which n8n did not save.
		if (turn.firstInProcess) turn.markInherited(staticData[MEMORY_KEY]);
	}
	const startedFrom = staticData[MEMORY_KEY];
	const account = await accountOf(context);
	const memory = readStatusMemory(startedFrom, account);
	const diff = new StatusDiff(memory?.items, { partial: memory?.partial === true, since: memory?.since, watching: memory?.watching, inherited: turn.isInherited(startedFrom) });
	// A failed read throws before the memory changes: the next poll compares with the same memory.
	const read = await readItemStatuses(context, (item) => diff.observe(item), {
		firstPagesOnly: activation,
		interactive: activation,
		signal: turn.signal,
		stop: () => !turn.isCurrent(),
	});
	if (!turn.isCurrent()) return null;
	// Only the activation leaves pages unread. A memory is left for the first scheduled poll to compare with.
	if (!read.complete && memory !== undefined) return null;
	const { events, next } = diff.finish();
	// When the trigger started watching: this read's beginning if it is the baseline, else the memory's (statusMemory.ts).
	const watching = memory === undefined ? read.began : memory.watching;
	// Numbered after the memory it replaces: never equal to one written before it (statusMemory.ts, `writes`).
	const stored = encodeStatusMemory(next, account, { partial: !read.complete, since: read.began, watching, writes: writesOf(startedFrom) + 1 });
	// Written only when the statuses differ, or an older version's memory gains `since` and `watching` (n8n saves the
	// whole workflow row when static data changed); an older `since` kept is only a lower bound further back, which is
	// safe. A memory without either would otherwise stay so until a status changed, every item it does not hold new.
	const olderForm = memory !== undefined && memory.watching === undefined;
	if (olderForm || !sameStatuses(stored, startedFrom)) staticData[MEMORY_KEY] = stored as unknown as IDataObject;
	const toAnnounce = events.flatMap((event) => announced(filter, event));
	turn.noteMemory(startedFrom, staticData[MEMORY_KEY], toAnnounce.length > 0);
	return outputOf(context, toAnnounce);
}

export async function pollItemStatuses(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const filter = readFilter(context);
	// n8n keeps one context for every poll of an activation: a credential edited since the last poll is read again.
	forgetCredentialTarget(context);
	if (context.getMode() === 'manual') return await testEvents(context, filter);

	const turn = beginPoll(context);
	try {
		// A tick of a replaced activation, or one that finds the previous poll still reading: skipped.
		if (!turn.isCurrent() || (turn.kind === 'scheduled' && turn.overlapping)) return null;
		return await poll(context, turn, filter);
	} catch (error) {
		// A superseded poll's failure (often its own stop) reports nothing: in n8n 1.x it would be an error execution.
		if (!turn.isCurrent()) return null;
		throw toNodeApiError(context.getNode(), error);
	} finally {
		turn.end();
	}
}
