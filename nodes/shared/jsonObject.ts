/**
 * "Is this a JSON object?" (not null, not an array): the shape of the API's records and error bodies, of
 * collection parameters and of webhook bodies. One definition, so every reader treats arrays and null alike.
 */
import type { IDataObject } from 'n8n-workflow';

export function isJsonObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function asJsonObject(value: unknown): IDataObject | undefined {
	return isJsonObject(value) ? value : undefined;
}
