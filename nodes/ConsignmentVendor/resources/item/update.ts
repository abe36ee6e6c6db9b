/**
 * Item → Update: PATCH /v1/items/{item_id}, one request per input item: declarative routing.
 * preSend hooks build the path from Item ID (or the item_id column, mapped automatically) and the body from the validated fields (shared/schemas.ts), so
 * an invalid item fails with its index and field before any request. `withActionableErrors` turns 400
 * (the service's text names the field) and 404 (the item_id) into messages a user can act on.
 */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyRouting } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/oneRequestRouting';
import { urlWithIdParameter } from '../../shared/requestPaths';
import { InputValidationError } from '../../shared/schemas';
import { approvedItemFields, itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { readApprovedItemPatch, readerForSingleItem, readItemIdToUpdate, readItemUpdateInput } from './helpers/itemPayload';

const show = { resource: ['item'], operation: ['update'] };

/**
 * Item ID, where it is a parameter: an approved item's update, or a manually mapped one. (Mapped automatically,
 * the item_id column names the item.) Two properties of one name: n8n's display rules cannot say "approved, or
 * all fields mapped manually" in one.
 */
function itemIdField(where: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Item ID',
		name: 'itemId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 700123',
		description: 'The platform item ID (item_id) of the item to update',
		hint: 'Use item_id (from the item-created webhook or Get Many), NOT the id field: id is the variant ID and the API does not accept it',
		displayOptions: { show: { ...show, ...where } },
	};
}

export const updateFields: INodeProperties[] = [
	itemIdField({ fieldsToSend: ['all'], fieldMapping: ['manual'] }),
	itemIdField({ fieldsToSend: ['approved'] }),
	{
		displayName: 'Fields to Send',
		name: 'fieldsToSend',
		type: 'options',
		default: 'all',
		description: 'What the item can still take depends on its validation status',
		displayOptions: { show },
		options: [
			{
				name: 'All Item Fields (Not Yet Approved Item)',
				value: 'all',
				description:
					'Pending, draft, rejected or in-reconciliation items need every creation field again; a rejected item goes back to pending',
			},
			{
				name: 'Address and Quantity Only (Approved Item)',
				value: 'approved',
				description: 'An approved item takes only address_id and a quantity decrease',
			},
		],
	},
	{
		displayName:
			'Approved items: only address_id and a quantity decrease are applied; price, MSRP and every other field are ignored (no webhook is sent for a quantity decrease). A rejected item goes back to pending. vendor_sku must stay the same.',
		name: 'updateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	...fieldMappingProperties('update', { fieldsToSend: ['all'] }),
	...itemInputFields(['update'], { fieldsToSend: ['all'] }),
	...approvedItemFields(['update'], { fieldsToSend: ['approved'] }),
];

function itemIdToUpdate(context: IExecuteSingleFunctions): unknown {
	return readItemIdToUpdate(readerForSingleItem(context));
}

/** Validates the item's fields and sets them as the PATCH body. */
async function setValidatedBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const read = readerForSingleItem(this);
	try {
		requestOptions.body =
			read('fieldsToSend', 'all') === 'approved'
				? readApprovedItemPatch(read, itemIndex)
				: readItemUpdateInput(read, itemIndex);
	} catch (error) {
		if (!(error instanceof InputValidationError)) throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		throw new NodeOperationError(this.getNode(), error.message, {
			itemIndex,
			description: 'Nothing was sent for this item. Correct the field named above and run the node again.',
		});
	}
	return requestOptions;
}

export const updateRouting: INodePropertyRouting = withActionableErrors(
	{
		request: { method: 'PATCH' },
		send: {
			preSend: [
				urlWithIdParameter({
					parameter: 'itemId',
					label: 'Item ID (item_id)',
					url: (id) => `/v1/items/${id}`,
					readId: itemIdToUpdate,
				}),
				setValidatedBody,
			],
		},
	},
	{
		subject() {
			return { kind: 'item', id: String(itemIdToUpdate(this) ?? '').trim() };
		},
	},
);
