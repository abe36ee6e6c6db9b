/**
 * n8n runs a poll on its schedule, at activation and at every start; in queue mode on the main process, which also
 * saves the static data. n8n saves static data when a poll emits (1.x also after activation; 2.x also after a poll
 * that emits nothing), so an event is announced once: the memory that includes it is saved before its execution.
 * Fetch Test Event (mode `manual`) returns the latest items as events without touching the memory.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { accountOf, readItemStatuses } from './readItemStatuses';
import { StatusDiff, type ItemEvent, type ItemEventName } from './statusDiff';
import { decodeStatusMemory, encodeStatusMemory } from './statusMemory';

const MEMORY_KEY = 'itemStatuses';
/** How many items Fetch Test Event returns. */
const TEST_EVENT_COUNT = 5;

/** Polls of one trigger node running in this process: a poll that outlasts its interval is not overlapped. */
const pollsInFlight = new Set<string>();

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

/** The output item: the item's fields as the listing gave them, plus what happened. */
function outputOf(event: ItemEvent): INodeExecutionData {
	return { json: { ...event.record, event: event.event, previous_status: event.previousStatus, status: event.status } };
}

const updatedAt = (record: IDataObject) => {
	const time = typeof record.updated_at === 'string' ? Date.parse(record.updated_at) : NaN;
	return Number.isNaN(time) ? -Infinity : time;
};

async function testEvents(context: IPollFunctions, filter: EventFilter): Promise<INodeExecutionData[][] | null> {
	// A sample needs no memory: the latest items, shaped as the events the workflow will get.
	const event: ItemEventName = filter.events.includes('new_item') || filter.events.length === 0 ? 'new_item' : 'status_changed';
	const latest: ItemEvent[] = [];
	await readItemStatuses(context, (item) => {
		if (filter.statuses.length > 0 && !filter.statuses.includes(item.status)) return;
		latest.push({ event, id: item.id, previousStatus: null, status: item.status, record: item.record });
		latest.sort((a, b) => updatedAt(b.record) - updatedAt(a.record));
		if (latest.length > TEST_EVENT_COUNT) latest.pop();
	});
	return latest.length > 0 ? [latest.map(outputOf)] : null;
}

export async function pollItemStatuses(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const filter = readFilter(context);
	if (context.getMode() === 'manual') return await testEvents(context, filter);

	const key = `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
	if (pollsInFlight.has(key)) return null;
	pollsInFlight.add(key);
	try {
		const staticData = context.getWorkflowStaticData('node');
		const account = await accountOf(context);
		const diff = new StatusDiff(decodeStatusMemory(staticData[MEMORY_KEY], account));
		// A failed read throws before the memory changes: the next poll compares with the same memory.
		await readItemStatuses(context, (item) => diff.observe(item));
		const { events, next } = diff.finish();
		const stored = encodeStatusMemory(next, account);
		// Written only when it differs: n8n saves the whole workflow row when static data changed.
		if (JSON.stringify(stored) !== JSON.stringify(staticData[MEMORY_KEY])) staticData[MEMORY_KEY] = stored as unknown as IDataObject;
		const selected = events.filter((event) => matches(filter, event.event, event.status));
		return selected.length > 0 ? [selected.map(outputOf)] : null;
	} finally {
		pollsInFlight.delete(key);
	}
}
