/**
 * An AI agent using the node as a tool pays for every field of every record. On from version 1.1, off on version 1:
 * n8n saves a parameter only when it differs from its default, so changing the default in place would silently trim
 * the output of every workflow saved before Simplify existed.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const SIMPLIFY_ON_BY_DEFAULT_FROM = 1.1;

/** A field the record lacks is left out rather than added empty. */
export function pickFields(record: IDataObject, fields: readonly string[]): IDataObject {
	const picked: IDataObject = {};
	for (const field of fields) {
		if (Object.prototype.hasOwnProperty.call(record, field)) picked[field] = record[field];
	}
	return picked;
}

/** Twice: n8n shows the definition whose `@version` matches the node, so each version gets its own default. */
export function simplifyFields(show: { resource: string; operation: string }): INodeProperties[] {
	const forVersions = (versions: Array<number | { _cnd: { gte: number } }>) => ({
		show: { resource: [show.resource], operation: [show.operation], '@version': versions },
	});
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: forVersions([1]),
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: forVersions([{ _cnd: { gte: SIMPLIFY_ON_BY_DEFAULT_FROM } }]),
		},
	];
}
