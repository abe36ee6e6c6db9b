/**
 * Path parameters, built in code rather than in `={{ }}` URL expressions, so an empty or odd ID fails with a
 * message naming the field and the item instead of reaching a different endpoint.
 *
 * Exported API:
 * - `idSegment(value)`: the trimmed, URI-encoded ID, or an `Error` whose message says what is wrong.
 * - `urlWithIdParameter({ parameter, label, url, readId? })`: a `preSend` that reads the (resource-locator or
 *   plain) parameter (or what `readId` reads), and sets `requestOptions.url = url(encodedId)`. Errors name the field and the item index.
 * - `readIdParameter(context, parameter)`: the raw value of such a parameter (resource locators unwrapped).
 * - `recordRouting(record, routing)`: `withActionableErrors` routing of a one-request operation on the record an
 *   ID parameter names: the path from the ID (before the routing's own preSend hooks), and 404s that name it.
 */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodePropertyRouting } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiErrorSubject } from '../../shared/errors';
import { withActionableErrors } from './oneRequestRouting';

/** The ID as a path segment. `.` and `..` would be resolved away by URL handling and hit another endpoint. */
export function idSegment(value: unknown): string {
	// Missing (a mapped row without the column) is the same mistake as an empty field.
	if (value === undefined || value === null) throw new Error('is required');
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined) throw new Error(`must be text or a number, got ${JSON.stringify(value) ?? 'nothing'}`);
	if (text === '') throw new Error('is required');
	if (text === '.' || text === '..') throw new Error(`is not a valid ID: "${text}"`);
	return encodeURIComponent(text);
}

export function readIdParameter(context: IExecuteSingleFunctions, parameter: string): unknown {
	return context.getNodeParameter(parameter, undefined, { extractValue: true });
}

export function urlWithIdParameter(options: {
	/** Node parameter holding the ID (a resourceLocator or a string). */
	parameter: string;
	/** Field name shown in errors, e.g. `Address ID`. */
	label: string;
	url: (encodedId: string) => string;
	/** Where the ID is read from, when not (only) from `parameter`. */
	readId?: (context: IExecuteSingleFunctions) => unknown;
}) {
	const readId = options.readId ?? ((context: IExecuteSingleFunctions) => readIdParameter(context, options.parameter));
	return async function setUrlFromId(
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const itemIndex = this.getItemIndex();
		let segment: string;
		try {
			segment = idSegment(readId(this));
		} catch (error) {
			throw new NodeOperationError(
				this.getNode(),
				`Item index ${itemIndex}: ${options.label} ${(error as Error).message}`,
				{ itemIndex },
			);
		}
		requestOptions.url = options.url(segment);
		return requestOptions;
	};
}

/** The record a one-request operation works on: which parameter holds its ID, and where that ID goes. */
export interface RecordById {
	/** Node parameter holding the ID (a resourceLocator or a string). */
	parameter: string;
	/** Field name shown in errors, e.g. `Address`. */
	label: string;
	/** What a 404 says was not found. */
	kind: ApiErrorSubject['kind'];
	url: (encodedId: string) => string;
}

export function recordRouting(record: RecordById, routing: INodePropertyRouting): INodePropertyRouting {
	return withActionableErrors(
		{ ...routing, send: { ...routing.send, preSend: [urlWithIdParameter(record), ...(routing.send?.preSend ?? [])] } },
		{
			subject() {
				return { kind: record.kind, id: String(readIdParameter(this, record.parameter)) };
			},
		},
	);
}
