import { idSegment } from '../../../shared/requestPaths';

/** The item endpoints the item operations (all custom operations) call through the transport's `apiRequest`. */
export const itemPaths = {
	createInConsignment: (consignmentId: string) => `/v1/consignments/${idSegment(consignmentId)}/items`,
	item: (itemId: string | number) => `/v1/items/${idSegment(itemId)}`,
	items: '/v1/items',
	nonApproved: '/v1/items/non_approved',
};
