/**
 * Upsert's "Only Send What Changed": a fingerprint of what was last sent successfully for each vendor SKU, kept
 * in the node's workflow static data (`getWorkflowStaticData('node')`, key `sentFingerprints`). n8n saves static
 * data with the workflow after production executions (trigger, schedule, webhook; queue-mode workers included)
 * and not after manual test runs, so the memory is that of the workflow's production runs.
 *
 * A fingerprint is a SHA-256 (first 16 hex digits) of the row as it would be sent (every item field, the
 * additional fields, the consignment a new item goes to), with object keys in a fixed order, so the same row
 * always gives the same fingerprint and any changed value gives another.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

const STATIC_DATA_KEY = 'sentFingerprints';

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

export function fingerprintOf(row: unknown): string {
	return createHash('sha256').update(JSON.stringify(canonical(row))).digest('hex').slice(0, 16);
}

const skuKey = (vendorSku: string) => vendorSku.toLowerCase();

export class SentMemory {
	private readonly fingerprints: Record<string, string>;

	private changed = false;

	private constructor(private readonly staticData: IDataObject) {
		const stored = staticData[STATIC_DATA_KEY];
		this.fingerprints = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, string>) } : {};
	}

	/** The node's memory; `forget` starts it empty (Forget What Was Sent). */
	static of(context: IExecuteFunctions, forget: boolean): SentMemory {
		const memory = new SentMemory(context.getWorkflowStaticData('node'));
		if (forget) {
			for (const key of Object.keys(memory.fingerprints)) delete memory.fingerprints[key];
			memory.changed = true;
		}
		return memory;
	}

	/** Whether `fingerprint` is what was last sent successfully for this SKU. */
	unchanged(vendorSku: string, fingerprint: string): boolean {
		return this.fingerprints[skuKey(vendorSku)] === fingerprint;
	}

	remember(vendorSku: string, fingerprint: string): void {
		this.fingerprints[skuKey(vendorSku)] = fingerprint;
		this.changed = true;
	}

	/** Writes the memory back as one new value, which marks n8n's static data as changed so it is saved. */
	save(): void {
		if (this.changed) this.staticData[STATIC_DATA_KEY] = { ...this.fingerprints };
	}
}
