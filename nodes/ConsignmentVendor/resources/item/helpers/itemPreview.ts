/**
 * Preview Only, for Create, Update and Create or Update: every row is read, checked and (Create or Update) found
 * exactly as in a real run, and each input item gets one output item saying what a real run would do; no write
 * request is sent (the reads that find rows are). Invalid rows are reported with the reasons a real run gives
 * (shared/batchFailures.ts's texts), as output items rather than errors, so the whole sheet is previewed at once.
 * Only Send What Changed's memory is read, never saved.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { centsFromDollars } from '../../../../shared/money';
import type { ItemPayload } from '../../../shared/schemas';

export const PREVIEW_ONLY = 'previewOnly';

const previewOnly: Omit<INodeProperties, 'hint' | 'displayOptions'> = {
	displayName: 'Preview Only',
	name: PREVIEW_ONLY,
	type: 'boolean',
	default: false,
	description:
		'Whether to only say what a run would do, row by row ("would create", "would update" with the fields that differ, "unchanged", "invalid" with the reasons), without creating or changing anything',
};

/** One property per wording: Create and Update read nothing, so their hint must not talk about finding rows. */
export const previewOnlyProperties: INodeProperties[] = [
	{
		...previewOnly,
		hint: 'Nothing is sent: each row\'s output says what a real run would do with it',
		displayOptions: { show: { resource: ['item'], operation: ['create', 'update'] } },
	},
	{
		...previewOnly,
		hint: 'The item listings are still read to find each row; no item is created or changed',
		displayOptions: { show: { resource: ['item'], operation: ['upsert'] } },
	},
];

export function isPreview(context: IExecuteFunctions): boolean {
	return context.getNodeParameter(PREVIEW_ONLY, 0, false) === true;
}

const dollarsOf = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Each amount a preview's row would send, in cents as sent and in dollars, so a factor of 100 shows before it is sent. */
export function amountsOf(sent: IDataObject): IDataObject {
	const amounts: IDataObject = {};
	for (const field of ['msrp', 'price']) {
		const cents = sent[field];
		if (typeof cents === 'number') amounts[field] = { cents, dollars: dollarsOf(cents) };
	}
	return amounts;
}

/**
 * The fields of a row the listings show (the rest, msrp, images, gender, attributes and address, they never do), with
 * the words the editor uses for them: Only Send What Changed's hint is built from this list, so it names what is compared.
 */
export const LISTED_FIELDS = {
	designer: 'designer',
	condition: 'condition',
	taxon_permalink: 'category',
	price: 'price',
	quantity: 'quantity (non-approved items)',
} as const satisfies Partial<Record<keyof ItemPayload, string>>;

/** The values of LISTED_FIELDS in a listed record, under the row's names, as the row would send them (cents). */
function shownValues(record: IDataObject): Record<keyof typeof LISTED_FIELDS, unknown> {
	const price = record.price;
	let cents: number | undefined;
	if (typeof price === 'number') cents = price;
	else if (price !== null && typeof price === 'object' && (price as IDataObject).price !== undefined) {
		try {
			cents = centsFromDollars((price as IDataObject).price); // the non-approved listing: "123.45"
		} catch {
			cents = undefined;
		}
	}
	return {
		designer: record.designer,
		condition: record.condition,
		taxon_permalink: record.taxon,
		price: cents,
		quantity: record.quantity,
	};
}

/**
 * Of the fields a row would send, those that differ from what the listings show (`differs`), and those the listings
 * do not show, which cannot be compared (`notShown`: image, msrp, gender… and any the service left out).
 */
export function comparedWithListing(sent: IDataObject, record: IDataObject | undefined): { differs: string[]; notShown: string[] } {
	const shown: Partial<Record<string, unknown>> = record ? shownValues(record) : {};
	const differs: string[] = [];
	const notShown: string[] = [];
	for (const field of Object.keys(sent)) {
		if (field === 'vendor_sku') continue;
		const value = shown[field];
		if (value === undefined || value === null) notShown.push(field);
		else if (value !== sent[field]) differs.push(field);
	}
	return { differs, notShown };
}
