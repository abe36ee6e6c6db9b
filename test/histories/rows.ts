// What a history's input rows are made of: a small pool of SKUs (so runs meet the same SKUs again), the forms a sheet
// or a shop writes them in, and the few values a row's versions differ by. Kept small on purpose: a history is about
// the same SKUs going through many runs, not about many SKUs.
import type { IDataObject } from 'n8n-workflow';

import { validAddress } from '../integration/address-input';
import { validItem } from '../integration/item-input';

/** Text SKUs, digit-only SKUs (which a service may list as JSON numbers), one with leading zeros. */
export const SKU_POOL = ['BAG-101', 'Bag-102', 'CL-103', '7300104', '0073105', '7300106'] as const;

/** How the input writes a SKU: as the pool has it, in another case, with spaces around, or as a JSON number. */
export type SkuForm = 'text' | 'lower' | 'upper' | 'spaces' | 'number';

export const hasLeadingZero = (sku: string) => /^0\d/.test(sku);
export const isDigitOnly = (sku: string) => /^\d+$/.test(sku);

/** A JSON number only where a sheet could hold one without losing the SKU (no leading zero). */
export function skuValue(sku: string, form: SkuForm): string | number {
	switch (form) {
		case 'lower':
			return sku.toLowerCase();
		case 'upper':
			return sku.toUpperCase();
		case 'spaces':
			return ` ${sku} `;
		case 'number':
			return isDigitOnly(sku) && !hasLeadingZero(sku) ? Number(sku) : sku;
		default:
			return sku;
	}
}

/** The SKU as the service compares it: case and surrounding spaces ignored. */
export const skuIdentity = (sku: unknown) => String(sku).trim().toLowerCase();

/** An item row: one of the pool's SKUs in a form, at a version of its values; `refused` makes the service refuse it. */
export interface ItemRowSpec {
	sku: number;
	form: SkuForm;
	version: number;
	/** A designer the service does not know (the node cannot: the contract does not list them): a 207 for this row. */
	refused?: boolean;
}

/** The values a row's version sets (what invariant "the row's values are at the service" compares). */
export function versionValues(version: number): { quantity: number; price: number; msrp: number } {
	return { quantity: [2, 3, 1][version % 3], price: 129900 - 1000 * version, msrp: 250000 + 1000 * version };
}

export const REFUSED_DESIGNER = 'Not A Designer';

export function itemRow(spec: ItemRowSpec): IDataObject {
	const sku = SKU_POOL[spec.sku];
	return validItem(skuValue(sku, spec.form) as string, {
		...versionValues(spec.version),
		...(spec.refused ? { designer: REFUSED_DESIGNER } : {}),
	});
}

export function describeItemRow(spec: ItemRowSpec): string {
	const value = skuValue(SKU_POOL[spec.sku], spec.form);
	return `${JSON.stringify(value)} v${spec.version}${spec.refused ? ' (refused by the service)' : ''}`;
}

/** Address rows are told apart by their street (address1), which the history numbers. */
export function addressRow(street: number, version = 0): IDataObject {
	return validAddress({ address1: `${street} History St`, address2: `Suite ${version}` });
}

export const streetOf = (address: { address1?: unknown }) => {
	const match = /^(\d+) History St$/.exec(String(address.address1 ?? ''));
	return match ? Number(match[1]) : undefined;
};
