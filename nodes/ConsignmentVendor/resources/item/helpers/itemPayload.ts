/**
 * From the node's item parameters (itemFields.ts), or the columns of its column mapper (itemMapping.ts), to
 * validated request bodies (shared/schemas.ts).
 * Used by the item operations (all custom operations) through a `ParameterReader`: one input item's parameters.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asJsonObject } from '../../../../shared/jsonObject';
import { isPriceUnit, type PriceUnit } from '../../../shared/money';
import {
	InputValidationError,
	parseApprovedItemUpdateInput,
	parseItemCreationInput,
	parseItemUpdateInput,
	type ApprovedItemPatch,
	type ItemPayload,
} from '../../../shared/schemas';
import { mappedColumns, usesColumnMapper } from './itemMapping';

/**
 * Reads one input item's node parameters; `inputJson` is that input item's data (for automatic mapping),
 * `nodeVersion` the node's, which decides the parameters there are (itemMapping.ts).
 */
export type ParameterReader = ((name: string, fallback: unknown) => unknown) & {
	inputJson: () => IDataObject;
	nodeVersion: number;
};

export function readerForItem(context: IExecuteFunctions, itemIndex: number): ParameterReader {
	return Object.assign((name: string, fallback: unknown) => context.getNodeParameter(name, itemIndex, fallback), {
		inputJson: () => context.getInputData()[itemIndex]?.json ?? {},
		nodeVersion: context.getNode().typeVersion,
	});
}

/** Whether the item fields come from the column mapper (Update only in its "all fields" mode). */
function mapsAutomatically(read: ParameterReader): boolean {
	const approvedUpdate = read('operation', '') === 'update' && read('fieldsToSend', 'all') === 'approved';
	return usesColumnMapper(read.nodeVersion, read('fieldMapping', 'manual')) && !approvedUpdate;
}

/** The mapped columns, when the item fields come from the column mapper. */
function mappedRow(read: ParameterReader): IDataObject | undefined {
	return mapsAutomatically(read) ? mappedColumns(read('itemColumns', {}), read.inputJson) : undefined;
}

/** The item ID Update patches: the mapper's item_id column, or the Item ID parameter. */
export function readItemIdToUpdate(read: ParameterReader): unknown {
	const row = mappedRow(read);
	return row ? row.item_id : read('itemId', '');
}

/** The vendor SKU as entered, to label a failure before the item was validated. */
export function enteredVendorSku(read: ParameterReader): string | undefined {
	const sku = mappedRow(read)?.vendor_sku ?? read('vendorSku', '');
	const text = typeof sku === 'number' ? String(sku) : typeof sku === 'string' ? sku.trim() : '';
	return text || undefined;
}

function readPriceUnit(read: ParameterReader, itemIndex: number): PriceUnit {
	const unit = read('priceUnit', 'cents');
	if (isPriceUnit(unit)) return unit;
	throw new InputValidationError(itemIndex, [
		{ field: 'Price Unit', message: `must be cents or dollars, got ${JSON.stringify(unit)}` },
	]);
}

/** The creation inputs under their API names, from mapped columns (image_front/back make `image`). */
function rawItemFromRow(row: IDataObject): IDataObject {
	const { image_front: front, image_back: back, ...fields } = row;
	delete fields.item_id; // Update's path, not a body field
	return { ...fields, image: { front, back } };
}

/** The creation inputs under their API names, as entered (not yet validated). */
function readRawItem(read: ParameterReader): IDataObject {
	const row = mappedRow(read);
	if (row) return rawItemFromRow(row);
	const additional = asJsonObject(read('additionalFields', {})) ?? {};
	return {
		vendor_sku: read('vendorSku', ''),
		upc: read('upc', ''),
		taxon_permalink: read('taxonPermalink', ''),
		condition: read('condition', ''),
		with_tags: read('withTags', false),
		designer: read('designer', ''),
		image: { front: read('imageFront', ''), back: read('imageBack', '') },
		quantity: read('quantity', undefined),
		msrp: read('msrp', ''),
		price: read('price', ''),
		gender: read('gender', []),
		taxon_specific_attributes: read('taxonSpecificAttributes', '{}'),
		designer_specific_attributes: additional.designerSpecificAttributes,
		address_id: additional.addressId,
	} as IDataObject;
}

type ItemParser = typeof parseItemCreationInput;

/** A mapped item's fields are named in errors as its columns are: image_front, not image.front. */
const columnName = (apiPath: string) => apiPath.replace(/^image\.(front|back)$/, 'image_$1');

function readItem(read: ParameterReader, itemIndex: number, parse: ItemParser): ItemPayload {
	const priceUnit = readPriceUnit(read, itemIndex);
	return parse(readRawItem(read), itemIndex, { priceUnit, fieldName: mapsAutomatically(read) ? columnName : undefined });
}

/** Reads and validates one item for POST /v1/consignments/{id}/items. @throws InputValidationError */
export function readItemCreationInput(read: ParameterReader, itemIndex: number): ItemPayload {
	return readItem(read, itemIndex, parseItemCreationInput);
}

/** Reads and validates every field for PATCH /v1/items/{item_id} of a non-approved item. @throws InputValidationError */
export function readItemUpdateInput(read: ParameterReader, itemIndex: number): ItemPayload {
	return readItem(read, itemIndex, parseItemUpdateInput);
}

/** Reads and validates Update's "approved item" fields. @throws InputValidationError */
export function readApprovedItemPatch(read: ParameterReader, itemIndex: number): ApprovedItemPatch {
	const fields = asJsonObject(read('approvedItemFields', {})) ?? {};
	return parseApprovedItemUpdateInput({ address_id: fields.addressId, quantity: fields.quantity }, itemIndex);
}

/**
 * Why an approved item's quantity from a full item payload is not sent, or undefined when it is sent (a decrease
 * from a quantity the service showed). The contract changes an approved item's quantity only by a decrease, and its
 * approved listing does not show the quantity: an unknown current quantity could make the PATCH an increase, which
 * the service ignores or refuses (a refusal would drop the address change of the same request).
 */
function quantityNotSent(quantity: number, currentQuantity: number | undefined): string | undefined {
	if (currentQuantity === undefined) {
		return `quantity ${quantity} was not sent: an approved item takes only a quantity decrease, and the service does not show this item's current quantity. To decrease it, use Item → Update with Fields to Send → Address and Quantity Only`;
	}
	if (quantity > currentQuantity) {
		return `quantity ${quantity} was not sent: an approved item's quantity can only be decreased, and it is ${currentQuantity}`;
	}
	return undefined;
}

/**
 * What an approved item accepts out of a full item payload: `address_id`, and `quantity` when it is a known
 * decrease (quantityNotSent). Every other field given is listed as ignored, so the output tells the user which of
 * their values did not reach the item; a quantity not sent is listed too, with `quantityNotSent` saying why.
 * `vendor_sku` identifies the item and is neither sent nor ignored; a quantity equal to the known one needs no change.
 */
export function approvedItemPart(
	payload: ItemPayload,
	currentQuantity: number | undefined,
): { patch: ApprovedItemPatch; ignoredFields: string[]; quantityNotSent?: string } {
	const patch: ApprovedItemPatch = {};
	const ignoredFields: string[] = [];
	let notSent: string | undefined;
	for (const field of Object.keys(payload) as Array<keyof ItemPayload>) {
		if (field === 'vendor_sku') continue;
		if (field === 'address_id') patch.address_id = payload.address_id;
		else if (field === 'quantity') {
			notSent = quantityNotSent(payload.quantity, currentQuantity);
			if (notSent) ignoredFields.push(field);
			else if (payload.quantity !== currentQuantity) patch.quantity = payload.quantity;
		} else ignoredFields.push(field);
	}
	return { patch, ignoredFields, ...(notSent ? { quantityNotSent: notSent } : {}) };
}
