/**
 * Create or Update's own parameters: the consignment for new items, how long a submission holds its row back, Send
 * Again, Only Send What Changed (on for new nodes from 1.3) and the mirror's (mirror/missingItemsFields.ts). The item
 * fields they share with Create and Update, and the one updateDisplayOptions, are added by the operation (upsert.ts).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { consignmentLocator } from '../../../shared/resourceLocators';
import { LISTED_FIELDS } from '../helpers/itemPreview';
import { DEFAULT_LISTED_WITHIN_HOURS, sendAgainField } from '../helpers/ledgerFields';
import { missingItemsFields } from './mirror/missingItemsFields';

/**
 * What the 6-hour check can see is what the listings show: the hint names those fields from the one list that the
 * comparison uses, and says what happens to the others.
 */
export const ONLY_CHANGED_HINT = `A change made outside this workflow to an item's ${Object.values(LISTED_FIELDS).join(', ')} is corrected at the next check, at most 6 hours later. The fields the listings do not show (MSRP, images, gender, attributes, address) are trusted as last sent: turn on Forget What Was Sent for one run to send them again`;

/**
 * From 1.3 new nodes have Only Send What Changed on: a scheduled sync of an unchanged sheet then sends nothing, where
 * off it PATCHes every non-approved row on every run (the listings cannot show that their other fields are as sent).
 */
export const ONLY_CHANGED_BY_DEFAULT_FROM = 1.3;

type Versions = NonNullable<NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>['@version']>;

/** The option's words, the same at every version; only its default and the versions it shows for differ. */
const onlySendWhatChangedText = {
	displayName: 'Only Send What Changed',
	name: 'onlySendWhatChanged',
	description:
		'Whether to skip rows identical to what this node last sent successfully for their Vendor SKU, once the service shows the item (no request at all; the output says "unchanged"). A new item is skipped only after the listings show it, so one the service refused later is sent again. Every 6 hours a run checks the skipped rows against the listings, so an item deleted at the service is sent again. The memory is kept in the workflow and updated by production runs, not by manual test runs.',
	hint: ONLY_CHANGED_HINT,
};

function onlySendWhatChanged(on: boolean, versions: Versions): INodeProperties {
	const displayOptions = { show: { '@version': versions } };
	return on
		? { ...onlySendWhatChangedText, type: 'boolean', default: true, displayOptions }
		: { ...onlySendWhatChangedText, type: 'boolean', default: false, displayOptions };
}

/** Shown before the item fields (the order the editor shows them in). */
export const upsertOwnFields: INodeProperties[] = [
	consignmentLocator({
		description: 'Consignment a new item is created in when no item has its Vendor SKU',
	}),
	{
		displayName:
			'Finds the item by Vendor SKU among non-approved and approved items: updates it when found, creates it otherwise. Approved items get only the address: the service does not show their quantity, so it is not sent (decrease it with Update); the output lists the fields not applied. New items get their item_id later by webhook.',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'New Items Listed Within (Hours)',
		name: 'newItemsListedWithin',
		type: 'number',
		default: DEFAULT_LISTED_WITHIN_HOURS,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			'How long the service may take to list an item after accepting it. Until the listings show an item submitted on this account (by this node, another node or another workflow, or with an unknown outcome), its row is not sent again, so a run that comes sooner never creates it twice; the output says "awaiting the service". Each submission keeps the window it was sent with.',
		hint: 'Set 0 only if the service lists new items at once. To send a row the service refused after accepting it (invalid_item_upload), use Send Again',
	},
	sendAgainField(),
	// Off for nodes saved before 1.3 (n8n does not store a parameter left at its default), on for new ones.
	onlySendWhatChanged(false, [{ _cnd: { lt: ONLY_CHANGED_BY_DEFAULT_FROM } }]),
	onlySendWhatChanged(true, [{ _cnd: { gte: ONLY_CHANGED_BY_DEFAULT_FROM } }]),
	{
		displayName: 'Forget What Was Sent',
		name: 'forgetWhatWasSent',
		type: 'boolean',
		default: false,
		description: 'Whether to empty the memory first, so every row is sent (and remembered again)',
		hint: 'Turn on for one production run, then off again',
		displayOptions: { show: { onlySendWhatChanged: [true] } },
	},
	...missingItemsFields,
];

/** New Items Listed Within, in ms: how long this run's submissions hold their rows back (submissionLedger.ts). */
export function listingWindowMs(context: IExecuteFunctions): number {
	return Math.max(0, Number(context.getNodeParameter('newItemsListedWithin', 0, DEFAULT_LISTED_WITHIN_HOURS)) || 0) * 3_600_000;
}

