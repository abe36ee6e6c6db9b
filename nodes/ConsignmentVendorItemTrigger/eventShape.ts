/**
 * The output item of one event. The two listings show an item differently (contract, Item fields): the approved
 * listing's `price` is whole cents and it has no `quantity`; the non-approved listing's `price` is an object
 * `{currency_code, price}` with the amount in dollars as text, and it has `quantity`.
 * - Node version 1: the record exactly as its listing gave it (the mixed units above), plus what happened.
 * - Node version 2 (the default): one shape: `price` in whole cents (as the API's writes take it) in every event,
 *   the non-approved listing's object kept as `listed_price`, and `quantity` as the listing showed it or null
 *   when the listing does not show it (approved items).
 * Both versions add `previous_status_unknown: true` to a change whose previous status no read saw.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { centsFromCents, centsFromDollars } from '../shared/money';
import type { ItemEvent } from './statusDiff';

/** The first node version with one event shape. */
export const ONE_EVENT_SHAPE_FROM = 2;

/** Whole cents, or null when the listing's price is not a readable amount. */
function priceInCents(price: unknown): number | null {
	try {
		if (price !== null && typeof price === 'object' && !Array.isArray(price)) return centsFromDollars((price as IDataObject).price);
		return price === undefined || price === null ? null : centsFromCents(price);
	} catch {
		return null;
	}
}

function oneShape(record: IDataObject): IDataObject {
	const { price, quantity, ...rest } = record;
	const json: IDataObject = { ...rest, price: priceInCents(price), quantity: typeof quantity === 'number' ? quantity : null };
	if (price !== null && typeof price === 'object') json.listed_price = price as IDataObject;
	return json;
}

export function eventOutput(event: ItemEvent, nodeVersion: number): INodeExecutionData {
	const fields = nodeVersion >= ONE_EVENT_SHAPE_FROM ? oneShape(event.record) : event.record;
	const json: IDataObject = { ...fields, event: event.event, previous_status: event.previousStatus, status: event.status };
	// Only on a change from a status no read saw (statusDiff.ts): a workflow can tell it from a first sighting.
	if (event.previousStatusUnknown === true) json.previous_status_unknown = true;
	return { json };
}
