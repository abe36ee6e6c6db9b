/**
 * The parameters of creating through the account's ledger (submissionLedger.ts), as Item Create and Create or Update
 * show them: how long a submission holds its row back by default, and Send Again. A table of fields, so that the
 * operations' descriptions and the ledger read it without depending on each other.
 */
import type { INodeProperties } from 'n8n-workflow';

/** A duplicate is for good (two listings of one piece), a refused row's wait is not, and it is told by invalid_item_upload. */
export const DEFAULT_LISTED_WITHIN_HOURS = 24;

/** The way to send rows an earlier submission holds back, one SKU at a time: nothing else is released. */
export function sendAgainField(): INodeProperties {
	return {
		displayName: 'Send Again (Vendor SKUs)',
		name: 'sendAgain',
		type: 'string',
		default: '',
		placeholder: 'e.g. BAG-0001, BAG-0002',
		description:
			'Vendor SKUs to send in this run although an earlier submission (by any node or workflow on this account) still holds them back as "awaiting the service". Only these rows are released; a submission still on the wire is never sent twice.',
		hint: 'For a row the service refused after accepting it (invalid_item_upload): enter its Vendor SKU for one run, then clear this field',
	};
}

/** Send Again's SKUs: separated by commas, semicolons or new lines (a SKU may hold a space). */
export function readSendAgain(value: unknown): string[] {
	return typeof value === 'string' ? value.split(/[,;\r\n]+/).map((sku) => sku.trim()).filter((sku) => sku !== '') : [];
}
