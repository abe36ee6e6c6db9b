/**
 * Input validation, before any request is sent, for everything the node writes to the service:
 * item creation/update inputs and address create/update inputs. Every rule of the contract
 * (docs/vendor-api.md) that can be checked locally is checked here, so a bad row in a spreadsheet
 * costs no request and produces a message naming the item index, the field and the problem.
 *
 * zod 3 API only: n8n hands community packages its own zod, which is v3.
 */
import { z } from 'zod';

import {
	absoluteHttpUrl,
	booleanField,
	integerField,
	jsonObjectField,
	matching,
	moneyField,
	optionalText,
	parseWith,
	requiredText,
	shown,
} from './fieldRules';
import type { PriceUnit } from './money';

export { InputValidationError, formatIssues } from './fieldRules';
export type { InputIssue } from './fieldRules';
export { parseAddressInput } from './addressSchema';
export type { AddressPayload } from './addressSchema';

// ---------------------------------------------------------------------------------------------
// Items
// ---------------------------------------------------------------------------------------------

/** Taxons under this prefix are watches, which need a `upc`. */
export const WATCH_TAXON_PREFIX = 'watches/';

export const GENDERS = ['Men', 'Women'] as const;
export type Gender = (typeof GENDERS)[number];

/** Lower-case slugs separated by '/', at least two levels: `watches/strap`, `women/handbags/clutches`. */
export const TAXON_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\/[a-z0-9]+(?:[-_][a-z0-9]+)*)+$/;

/** One or both of Men/Women; a comma-separated string is accepted, case is normalised, repeats dropped. */
const genderField = z.preprocess(
	(value) => (typeof value === 'string' ? value.split(',') : value),
	z
		.array(z.unknown(), { required_error: 'is required', invalid_type_error: 'must be a list of Men and/or Women' })
		.transform((values, ctx) => {
			const genders: Gender[] = [];
			for (const value of values) {
				const text = typeof value === 'string' ? value.trim() : '';
				const gender = GENDERS.find((g) => g.toLowerCase() === text.toLowerCase());
				if (!gender) {
					ctx.addIssue({ code: z.ZodIssueCode.custom, message: `may only contain Men and Women, got ${shown(value)}` });
					return z.NEVER;
				}
				if (!genders.includes(gender)) genders.push(gender);
			}
			if (genders.length === 0) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must contain Men, Women or both' });
				return z.NEVER;
			}
			return genders;
		}),
);

/** An optional address id, sent as a string; a number is accepted, blank means "not given". */
const addressIdField = z
	.union([z.string(), z.number()], { invalid_type_error: 'must be an address ID (text)' })
	.optional()
	.nullable()
	.transform((value) => (value === undefined || value === null ? undefined : String(value).trim() || undefined));

export interface ItemInputOptions {
	/** Unit `price` and `msrp` were entered in. */
	priceUnit: PriceUnit;
}

function itemSchema({ priceUnit }: ItemInputOptions, minimumQuantity: number) {
	return z
		.object(
			{
				vendor_sku: requiredText,
				upc: optionalText,
				taxon_permalink: requiredText.pipe(
					matching(TAXON_PATTERN, 'must be a category path of lower-case segments joined by "/", such as women/handbags/clutches'),
				),
				condition: requiredText,
				with_tags: booleanField,
				designer: requiredText,
				image: z.object(
					{ front: absoluteHttpUrl, back: absoluteHttpUrl },
					{ required_error: 'is required', invalid_type_error: 'must be an object with front and back URLs' },
				),
				quantity: integerField(
					minimumQuantity,
					minimumQuantity > 0 ? 'a whole number of at least 1' : 'a whole number, 0 or more',
				),
				msrp: moneyField(priceUnit),
				price: moneyField(priceUnit),
				gender: genderField,
				taxon_specific_attributes: jsonObjectField(() => ({})),
				designer_specific_attributes: jsonObjectField(() => undefined),
				address_id: addressIdField,
			},
			{ required_error: 'is required', invalid_type_error: 'must be an object of item fields' },
		)
		.superRefine((item, ctx) => {
			if (item.taxon_permalink.startsWith(WATCH_TAXON_PREFIX) && item.upc === '') {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['upc'],
					message: `is required for watches (taxon_permalink ${shown(item.taxon_permalink)})`,
				});
			}
		})
		.transform((item) => {
			// Contract order; optional fields only when given, so the body holds exactly what the user set.
			const payload: ItemPayload = {
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
			return payload;
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

/**
 * Validates one item creation input (API field names; `image` as `{front, back}`; `price`/`msrp` in
 * `options.priceUnit`) and returns the exact element of `items` to send: integers in cents, `gender`
 * an array, attribute maps objects, `address_id` a string, `upc` only when given (required for watches/).
 *
 * @throws InputValidationError naming the item index and every invalid field.
 */
export function parseItemCreationInput(raw: unknown, itemIndex: number, options: ItemInputOptions): ItemPayload {
	return parseWith(itemSchema(options, 1), raw, itemIndex);
}

/**
 * As {@link parseItemCreationInput}, for PATCH /v1/items/{item_id} of a non-approved item, which needs
 * every creation field again. Quantity may be 0 (a zero-quantity item is an inactive record).
 */
export function parseItemUpdateInput(raw: unknown, itemIndex: number, options: ItemInputOptions): ItemPayload {
	return parseWith(itemSchema(options, 0), raw, itemIndex);
}

const approvedItemUpdateSchema = z
	.object({
		address_id: addressIdField,
		quantity: z
			.union([z.literal(''), z.null(), z.undefined(), integerField(0, 'a whole number, 0 or more')])
			.transform((value) => (typeof value === 'number' ? value : undefined)),
	})
	.superRefine((patch, ctx) => {
		if (patch.address_id === undefined && patch.quantity === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['address_id'],
				message: 'or quantity must be given: they are the only fields an approved item accepts',
			});
		}
	})
	.transform((patch) => ({
		...(patch.quantity !== undefined ? { quantity: patch.quantity } : {}),
		...(patch.address_id !== undefined ? { address_id: patch.address_id } : {}),
	}));

/** The body of PATCH /v1/items/{item_id} for an approved item: only what the service applies to it. */
export type ApprovedItemPatch = z.output<typeof approvedItemUpdateSchema>;

/**
 * Validates a PATCH for an approved item: `address_id` (string) and/or `quantity` (whole number).
 * The service applies only these to approved items, and the quantity only when it is a decrease.
 *
 * @throws InputValidationError naming the item index and the invalid field.
 */
export function parseApprovedItemUpdateInput(raw: unknown, itemIndex: number): ApprovedItemPatch {
	return parseWith(approvedItemUpdateSchema, raw, itemIndex);
}

const consignmentIdSchema = z.object({
	consignment_id: requiredText.pipe(
		z.string().refine(
			(id) => !/\s/.test(id) && id !== '.' && id !== '..',
			(id) => ({ message: `must be a consignment ID such as cons_12345 (no spaces), got ${shown(id)}` }),
		),
	),
});

/**
 * Validates the consignment items are created in (a number is accepted; ids are strings, e.g. `cons_12345`).
 * @throws InputValidationError naming the item index and `consignment_id`.
 */
export function parseConsignmentId(raw: unknown, itemIndex: number): string {
	return parseWith(consignmentIdSchema, { consignment_id: raw }, itemIndex).consignment_id;
}
