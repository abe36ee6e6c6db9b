/**
 * Every API path the package calls (the contract's endpoints), under the credential's Base URL. IDs go into
 * paths through `idSegment`, never through `={{ }}` URL expressions, so an empty or odd ID fails with a message
 * naming the field instead of reaching a different endpoint.
 */

/** The ID as a path segment. `.` and `..` would be resolved away by URL handling and hit another endpoint. */
function idSegment(value: unknown): string {
	// Missing (a mapped row without the column) is the same mistake as an empty field.
	if (value === undefined || value === null) throw new Error('is required');
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined) throw new Error(`must be text or a number, got ${JSON.stringify(value) ?? 'nothing'}`);
	if (text === '') throw new Error('is required');
	if (text === '.' || text === '..') throw new Error(`is not a valid ID: "${text}"`);
	return encodeURIComponent(text);
}

export const apiPaths = {
	vendor: '/v1/vendor',
	addresses: '/v1/vendor/addresses',
	address: (addressId: unknown) => `/v1/vendor/addresses/${idSegment(addressId)}`,
	consignments: '/v1/consignments',
	consignment: (consignmentId: unknown) => `/v1/consignments/${idSegment(consignmentId)}`,
	itemsOfConsignment: (consignmentId: unknown) => `/v1/consignments/${idSegment(consignmentId)}/items`,
	items: '/v1/items',
	nonApprovedItems: '/v1/items/non_approved',
	item: (itemId: unknown) => `/v1/items/${idSegment(itemId)}`,
	cancellations: '/v1/cancellations',
};
