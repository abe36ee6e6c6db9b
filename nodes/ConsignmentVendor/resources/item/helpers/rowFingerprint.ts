/**
 * A row's fingerprint: a short hash of what a write would send for it (every item field and the consignment). The
 * ledger of submissions and Only Send What Changed's memory both store it, so "the same row" means one thing.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value as IDataObject)
				.sort()
				.map((key) => [key, canonical((value as IDataObject)[key])]),
		);
	}
	return value;
}

/** Keys in a fixed order: the same row gives the same fingerprint; any change, the consignment included, another. */
export function fingerprintOf(row: unknown, consignmentId: string | undefined): string {
	const sent = { row, consignment: consignmentId ?? null };
	return createHash('sha256').update(JSON.stringify(canonical(sent))).digest('hex').slice(0, 16);
}
