// The item creation input rules of the contract, used by POST .../items (per item, for the 207 errors) and by
// PATCH of a non-approved item (which needs the same fields). Every message starts with the field's name.
import { isCondition, isDesigner, isTaxonPermalink, WATCH_TAXON_PREFIX } from '../catalog';
import { isPlainObject } from '../http';
import type { SandboxStore } from '../store';
import type { Gender, StoredItem } from '../types';
import { isHttpUrl } from './url';

/** A checked creation input: the stored item's fields, the taxon under the name the API gives it. */
export type ItemInput = Pick<
	StoredItem,
	| 'vendor_sku'
	| 'upc'
	| 'condition'
	| 'with_tags'
	| 'designer'
	| 'image'
	| 'quantity'
	| 'msrp'
	| 'price'
	| 'gender'
	| 'taxon_specific_attributes'
	| 'address_id'
	| 'designer_specific_attributes'
> & { taxon_permalink: string };

export interface CheckResult<T> {
	value?: T;
	errors: string[];
}

const GENDERS: Gender[] = ['Men', 'Women'];

/** `minQuantity` is 1 on creation; a PATCH may bring a non-approved item down to 0. */
export function checkItemInput(raw: unknown, store: SandboxStore, minQuantity = 1): CheckResult<ItemInput> {
	if (!isPlainObject(raw)) return { errors: ['item is invalid: must be a JSON object'] };
	const errors: string[] = [];
	const present = (f: string) => raw[f] !== undefined && raw[f] !== null;
	const required = (f: string) => {
		if (present(f)) return true;
		errors.push(`${f} is required`);
		return false;
	};
	const invalid = (f: string, why: string) => errors.push(`${f} is invalid: ${why}`);

	const str = (f: string, rule?: (v: string) => boolean, why = 'must be a non-empty string') => {
		if (!required(f)) return;
		const v = raw[f];
		if (typeof v !== 'string' || v.trim() === '') invalid(f, 'must be a non-empty string');
		else if (rule && !rule(v)) invalid(f, why);
	};
	const int = (f: string, min: number) => {
		if (!required(f)) return;
		const v = raw[f];
		if (typeof v !== 'number' || !Number.isInteger(v) || v < min) invalid(f, `must be an integer >= ${min}`);
	};
	const obj = (f: string) => {
		if (present(f) && !isPlainObject(raw[f])) invalid(f, 'must be a JSON object');
	};

	str('vendor_sku');
	str('taxon_permalink', isTaxonPermalink, 'is not a valid taxon permalink');
	const isWatch = typeof raw.taxon_permalink === 'string' && raw.taxon_permalink.startsWith(WATCH_TAXON_PREFIX);
	if (isWatch && !present('upc')) errors.push(`upc is required for taxons under ${WATCH_TAXON_PREFIX}`);
	else if (isWatch) str('upc');
	else if (present('upc') && typeof raw.upc !== 'string') invalid('upc', 'must be a string');
	str('condition', isCondition, 'is not a valid condition');
	if (required('with_tags') && typeof raw.with_tags !== 'boolean') invalid('with_tags', 'must be a boolean');
	str('designer', isDesigner, 'is not a valid designer');
	if (required('image')) {
		const image = raw.image;
		if (!isPlainObject(image)) invalid('image', 'must be an object with front and back URLs');
		else {
			for (const side of ['front', 'back'] as const) {
				const url = image[side];
				if (typeof url !== 'string' || !isHttpUrl(url)) invalid(`image.${side}`, 'must be an http(s) URL');
			}
		}
	}
	int('quantity', minQuantity);
	int('msrp', 1);
	int('price', 1);
	if (required('gender')) {
		const g = raw.gender;
		if (!Array.isArray(g) || g.length === 0 || !g.every((x) => GENDERS.includes(x as Gender))) {
			invalid('gender', 'must be a non-empty array of "Men" and/or "Women"');
		}
	}
	if (required('taxon_specific_attributes')) obj('taxon_specific_attributes');
	obj('designer_specific_attributes');
	const address = present('address_id') ? checkAddressLink(raw.address_id, store) : { value: null, errors: [] };
	errors.push(...address.errors);

	if (errors.length) return { errors };
	return {
		errors,
		value: {
			vendor_sku: raw.vendor_sku as string,
			upc: typeof raw.upc === 'string' ? raw.upc : null,
			taxon_permalink: raw.taxon_permalink as string,
			condition: raw.condition as string,
			with_tags: raw.with_tags as boolean,
			designer: raw.designer as string,
			image: { front: (raw.image as { front: string }).front, back: (raw.image as { back: string }).back },
			quantity: raw.quantity as number,
			msrp: raw.msrp as number,
			price: raw.price as number,
			gender: [...(raw.gender as Gender[])],
			taxon_specific_attributes: raw.taxon_specific_attributes as Record<string, unknown>,
			address_id: address.value ?? null,
			designer_specific_attributes: (raw.designer_specific_attributes as Record<string, unknown>) ?? {},
		},
	};
}

/** `address_id` is sent as a string and must name an active address of the vendor. */
export function checkAddressLink(v: unknown, store: SandboxStore): CheckResult<number> {
	if (typeof v !== 'string') return { errors: ['address_id is invalid: must be a string'] };
	if (!/^\d+$/.test(v)) return { errors: [`address_id is invalid: no address ${v}`] };
	const address = store.findAddress(Number(v));
	if (!address) return { errors: [`address_id is invalid: no address ${v}`] };
	if (!address.active) return { errors: [`address_id is invalid: address ${v} is inactive`] };
	return { value: address.address_id, errors: [] };
}
