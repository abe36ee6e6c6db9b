/**
 * Envelopes: docs/service-notes.md, Webhooks; the contract's item-created notice has no documented shape (any
 * envelope without an operation, or a flat object, carrying `item_id`). Never rejects an event: a field of an
 * unexpected type is passed on as it came, so nothing the service sent is lost.
 */
import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

const DOCUMENTED_EVENTS = [
	'successful_item_upload',
	'invalid_item_upload',
	'item_purchased',
	'address_creation',
] as const;

const UNKNOWN_EVENT = 'unknown';

/** The service calls an item creation a successful upload ("an item was created or updated successfully"). */
const ITEM_NOTICE_EVENT = 'successful_item_upload';

type Envelope = 'body' | 'notification_event' | 'bare' | 'flat';

export interface NormalisedEvent {
	event: string;
	envelope: Envelope;
	fields: IDataObject;
}

// Two arguments: zod 4 has no one-argument z.record (n8n's runtime zod may be 3 or 4).
const record = z.record(z.string(), z.unknown());
const operation = z.string().trim().min(1);

const bodyEnvelope = z.object({
	body: z
		.object({ operation: operation.optional(), data: record.nullish() })
		.passthrough()
		.refine((body) => body.operation !== undefined || body.data != null),
});

const notificationEnvelope = z
	.object({
		type: z.string().optional(),
		data: record.nullish(),
		properties: z.object({ operation: operation.optional(), data: record.nullish() }).passthrough().nullish(),
	})
	.refine((n) => n.type === 'notification_event' || n.properties?.operation !== undefined);

const bareEnvelope = z.object({ operation, data: record.nullish() });

const dataOnlyEnvelope = z.object({ data: record });

// Ids appear both as numbers and strings (service notes): every id is output as a string.
const idLike = z
	.union([z.string(), z.number().finite()])
	.transform((value) => String(value))
	.nullable();

const errorText = (entry: unknown): string => {
	if (typeof entry === 'string') return entry;
	if (typeof entry === 'object' && entry !== null && typeof (entry as IDataObject).message === 'string') {
		return (entry as IDataObject).message as string;
	}
	return JSON.stringify(entry);
};

// `errors` is a list of strings; a single string or null is accepted and made a list.
const errorList = z
	.union([z.array(z.unknown()), z.string(), z.null()])
	.transform((value) => (value === null ? [] : Array.isArray(value) ? value.map(errorText) : [value]));

/** In output order. */
const KNOWN_FIELDS: ReadonlyArray<[string, z.ZodTypeAny]> = [
	['vendor_sku', idLike],
	['sku', idLike],
	['item_id', idLike],
	['consignment_id', idLike],
	['id', idLike],
	['errors', errorList],
	['timestamp', z.union([z.string(), z.number()]).nullable()],
	['pdf_url', z.string().nullable()],
];

const KNOWN_FIELD_NAMES = new Set(KNOWN_FIELDS.map(([name]) => name));

function normaliseFields(data: Record<string, unknown>): IDataObject {
	const fields: IDataObject = {};
	for (const [name, schema] of KNOWN_FIELDS) {
		if (!(name in data) || data[name] === undefined) continue;
		const parsed = schema.safeParse(data[name]);
		fields[name] = (parsed.success ? parsed.data : data[name]) as IDataObject[string];
	}
	for (const [name, value] of Object.entries(data)) {
		// `event` is the node's own field; a data field of that name must not replace it.
		if (KNOWN_FIELD_NAMES.has(name) || name === 'event' || value === undefined) continue;
		fields[name] = value as IDataObject[string];
	}
	return fields;
}

interface Unwrapped {
	envelope: Envelope;
	operation?: string;
	data: Record<string, unknown>;
}

function unwrap(body: IDataObject): Unwrapped {
	const viaBody = bodyEnvelope.safeParse(body);
	if (viaBody.success) {
		const { operation: op, data } = viaBody.data.body;
		return { envelope: 'body', operation: op, data: data ?? {} };
	}
	const viaNotification = notificationEnvelope.safeParse(body);
	if (viaNotification.success) {
		const { properties, data } = viaNotification.data;
		return {
			envelope: 'notification_event',
			operation: properties?.operation,
			data: properties?.data ?? data ?? {},
		};
	}
	const bare = bareEnvelope.safeParse(body);
	if (bare.success) return { envelope: 'bare', operation: bare.data.operation, data: bare.data.data ?? {} };
	// Not a documented envelope (e.g. the item-created notice): its `data` object, else the object itself.
	const dataOnly = dataOnlyEnvelope.safeParse(body);
	return { envelope: 'flat', data: dataOnly.success ? dataOnly.data.data : body };
}

export function normaliseEvent(body: IDataObject): NormalisedEvent {
	const { envelope, operation: op, data } = unwrap(body);
	const fields = normaliseFields(data);
	let event = op ?? UNKNOWN_EVENT;
	if (op === undefined && fields.item_id !== undefined && fields.item_id !== null) event = ITEM_NOTICE_EVENT;
	return { event, envelope, fields };
}

/** Filter value: every event / documented name / "other" = any event not documented. */
export const ALL_EVENTS = '*';
export const OTHER_EVENTS = 'other';

export function isEventSelected(event: string, selected: string[]): boolean {
	if (selected.length === 0 || selected.includes(ALL_EVENTS)) return true;
	if ((DOCUMENTED_EVENTS as readonly string[]).includes(event)) return selected.includes(event);
	return selected.includes(OTHER_EVENTS);
}
