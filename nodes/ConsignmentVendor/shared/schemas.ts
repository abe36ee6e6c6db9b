/**
 * Every contract rule that can be checked locally, so a bad row costs no request. One rule is the node's own:
 * price and MSRP must be greater than 0 (moneyField).
 * Runs on zod 3 and zod 4 (n8n hands community packages its own zod): built with ruleSchemas.ts only.
 */
import type { z } from 'zod';

import {
	httpUrlField,
	booleanField,
	integerField,
	jsonObjectField,
	matching,
	moneyField,
	optionalText,
	parseWith,
	requiredText,
	shown,
	type FieldNamer,
} from './fieldRules';
import type { PriceUnit } from '../../shared/money';
import { fields, refuse, rule, whenGiven, type Checked } from './ruleSchemas';

export { InputValidationError } from './fieldRules';
export { parseAddressInput } from './addressSchema';

const WATCH_TAXON_PREFIX = 'watches/';

const GENDERS = ['Men', 'Women'] as const;
type Gender = (typeof GENDERS)[number];

/**
 * Deliberately only the shape: the valid taxons (and whether case matters) are the service's to judge (contract:
 * "not shown"); refusing here would block an item the service may accept.
 */
const TAXON_PATTERN = /^[^\s/\\]+(?:\/[^\s/\\]+)*$/;

/** A list given as JSON text (`["Men"]`, as n8n's column mapper keeps an array typed in), else the value as is. */
function listFromJsonText(value: unknown): unknown {
	if (typeof value !== 'string' || !value.trim().startsWith('[')) return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}

/** A comma-separated string or a JSON list is accepted, case is normalised, repeats dropped. */
const genderField = rule((given): Checked<Gender[]> => {
	const value = listFromJsonText(given);
	if (value === undefined || value === null) return refuse('is required');
	const values = typeof value === 'string' ? value.split(',').filter((part) => part.trim() !== '') : value;
	if (!Array.isArray(values)) return refuse('must be a list of Men and/or Women');
	const genders: Gender[] = [];
	for (const entry of values) {
		const text = typeof entry === 'string' ? entry.trim() : '';
		const gender = GENDERS.find((g) => g.toLowerCase() === text.toLowerCase());
		if (!gender) return refuse(`may only contain Men and Women, got ${shown(entry)}`);
		if (!genders.includes(gender)) genders.push(gender);
	}
	return genders.length ? genders : refuse('must contain Men, Women or both');
});

/** An optional address id, sent as a string; a number is accepted, blank means "not given". */
const addressIdField = rule((value): Checked<string | undefined> => {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number') return refuse('must be an address ID (text)');
	return String(value).trim() || undefined;
});

function watchNeedsUpc(item: { taxon_permalink?: string; upc?: string }) {
	const isWatch = item.taxon_permalink?.toLowerCase().startsWith(WATCH_TAXON_PREFIX) === true;
	return isWatch && item.upc === '' ? [refuse(`is required for watches (taxon_permalink ${shown(item.taxon_permalink)})`, ['upc'])] : [];
}

export interface ItemInputOptions {
	priceUnit: PriceUnit;
	/** The column names when the item came from mapped columns. */
	fieldName?: FieldNamer;
}

function itemSchema({ priceUnit }: ItemInputOptions, minimumQuantity: number) {
	return fields(
		{
			vendor_sku: requiredText,
			upc: optionalText,
			taxon_permalink: requiredText.pipe(
				matching(TAXON_PATTERN, 'must be a category path: segments joined by "/", without spaces, such as women/handbags/clutches'),
			),
			condition: requiredText,
			with_tags: booleanField,
			designer: requiredText,
			image: fields({ front: httpUrlField, back: httpUrlField }, 'must be an object with front and back URLs'),
			quantity: integerField(minimumQuantity, minimumQuantity > 0 ? 'a whole number of at least 1' : 'a whole number, 0 or more'),
			msrp: moneyField(priceUnit),
			price: moneyField(priceUnit),
			gender: genderField,
			taxon_specific_attributes: jsonObjectField(() => ({})),
			designer_specific_attributes: jsonObjectField(() => undefined),
			address_id: addressIdField,
		},
		'must be an object of item fields',
		watchNeedsUpc,
	).transform((item): ItemPayload => {
		// Contract order; optional fields only when given, so the body holds exactly what the user set.
		return {
			vendor_sku: item.vendor_sku,
			...(item.upc !== '' ? { upc: item.upc } : {}),
			taxon_permalink: item.taxon_permalink,
			condition: item.condition,
			with_tags: item.with_tags,
			designer: item.designer,
			image: { front: item.image.front, back: item.image.back },
			quantity: item.quantity,
			msrp: item.msrp,
			price: item.price,
			gender: item.gender,
			taxon_specific_attributes: item.taxon_specific_attributes ?? {},
			...(item.designer_specific_attributes ? { designer_specific_attributes: item.designer_specific_attributes } : {}),
			...(item.address_id !== undefined ? { address_id: item.address_id } : {}),
		};
	});
}

/** One element of `items` in POST /v1/consignments/{id}/items, and the body of PATCH /v1/items/{item_id}. */
export interface ItemPayload {
	vendor_sku: string;
	upc?: string;
	taxon_permalink: string;
	condition: string;
	with_tags: boolean;
	designer: string;
	image: { front: string; back: string };
	quantity: number;
	msrp: number;
	price: number;
	gender: Gender[];
	taxon_specific_attributes: Record<string, unknown>;
	designer_specific_attributes?: Record<string, unknown>;
	address_id?: string;
}

export function parseItemCreationInput(raw: unknown, itemIndex: number, options: ItemInputOptions): ItemPayload {
	return parseWith(itemSchema(options, 1), raw, itemIndex, options.fieldName);
}

/** A non-approved item's PATCH needs every creation field again; quantity may be 0 (an inactive record). */
export function parseItemUpdateInput(raw: unknown, itemIndex: number, options: ItemInputOptions): ItemPayload {
	return parseWith(itemSchema(options, 0), raw, itemIndex, options.fieldName);
}

const approvedItemUpdateSchema = fields(
	{ address_id: addressIdField, quantity: whenGiven(integerField(0, 'a whole number, 0 or more')) },
	'must be an object of item fields',
	(patch) =>
		'address_id' in patch && 'quantity' in patch && patch.address_id === undefined && patch.quantity === undefined
			? [refuse('or quantity must be given: they are the only fields an approved item accepts', ['address_id'])]
			: [],
).transform((patch) => ({
	...(patch.quantity !== undefined ? { quantity: patch.quantity } : {}),
	...(patch.address_id !== undefined ? { address_id: patch.address_id } : {}),
}));

/** The service applies only these to an approved item, and the quantity only when it is a decrease. */
export type ApprovedItemPatch = z.output<typeof approvedItemUpdateSchema>;

export function parseApprovedItemUpdateInput(raw: unknown, itemIndex: number): ApprovedItemPatch {
	return parseWith(approvedItemUpdateSchema, raw, itemIndex);
}

const consignmentIdSchema = fields(
	{
		consignment_id: requiredText.pipe(
			rule((id) =>
				typeof id === 'string' && !/\s/.test(id) && id !== '.' && id !== '..'
					? id
					: refuse(`must be a consignment ID such as cons_12345 (no spaces), got ${shown(id)}`),
			),
		),
	},
	'must be an object',
);

export function parseConsignmentId(raw: unknown, itemIndex: number): string {
	return parseWith(consignmentIdSchema, { consignment_id: raw }, itemIndex).consignment_id;
}
