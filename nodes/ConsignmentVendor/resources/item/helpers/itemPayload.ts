/**
 * From the node's item parameters (itemFields.ts) to validated request bodies (shared/schemas.ts).
 * Used by custom operations (IExecuteFunctions) and by preSend hooks (IExecuteSingleFunctions), which
 * read parameters with different signatures; both are adapted to a `ParameterReader`.
 */
import type { IDataObject, IExecuteFunctions, IExecuteSingleFunctions } from 'n8n-workflow';

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

export type ParameterReader = (name: string, fallback: unknown) => unknown;

export function readerForItem(context: IExecuteFunctions, itemIndex: number): ParameterReader {
	return (name, fallback) => context.getNodeParameter(name, itemIndex, fallback);
}

export function readerForSingleItem(context: IExecuteSingleFunctions): ParameterReader {
	return (name, fallback) => context.getNodeParameter(name, fallback);
}

function readPriceUnit(read: ParameterReader, itemIndex: number): PriceUnit {
	const unit = read('priceUnit', 'cents');
	if (isPriceUnit(unit)) return unit;
	throw new InputValidationError(itemIndex, [
		{ field: 'Price Unit', message: `must be cents or dollars, got ${JSON.stringify(unit)}` },
	]);
}

/** The creation inputs under their API names, as entered (not yet validated). */
function readRawItem(read: ParameterReader): IDataObject {
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

/** Reads and validates one item for POST /v1/consignments/{id}/items. @throws InputValidationError */
export function readItemCreationInput(read: ParameterReader, itemIndex: number): ItemPayload {
	const priceUnit = readPriceUnit(read, itemIndex);
	return parseItemCreationInput(readRawItem(read), itemIndex, { priceUnit });
}

/** Reads and validates every field for PATCH /v1/items/{item_id} of a non-approved item. @throws InputValidationError */
export function readItemUpdateInput(read: ParameterReader, itemIndex: number): ItemPayload {
	const priceUnit = readPriceUnit(read, itemIndex);
	return parseItemUpdateInput(readRawItem(read), itemIndex, { priceUnit });
}

/** Reads and validates Update's "approved item" fields. @throws InputValidationError */
export function readApprovedItemPatch(read: ParameterReader, itemIndex: number): ApprovedItemPatch {
	const fields = asJsonObject(read('approvedItemFields', {})) ?? {};
	return parseApprovedItemUpdateInput({ address_id: fields.addressId, quantity: fields.quantity }, itemIndex);
}

/**
 * What an approved item accepts out of a full item payload: `address_id`, and `quantity` unless it is known
 * to be an increase (the service applies decreases only). Everything else given is listed as ignored, so
 * the output tells the user which of their values did not reach the item. `vendor_sku` identifies the item
 * and is neither sent nor ignored.
 */
export function approvedItemPart(
	payload: ItemPayload,
	currentQuantity: number | undefined,
): { patch: ApprovedItemPatch; ignoredFields: string[] } {
	const patch: ApprovedItemPatch = {};
	const ignoredFields: string[] = [];
	for (const field of Object.keys(payload) as Array<keyof ItemPayload>) {
		if (field === 'vendor_sku') continue;
		if (field === 'address_id') patch.address_id = payload.address_id;
		else if (field === 'quantity' && (currentQuantity === undefined || payload.quantity <= currentQuantity)) {
			patch.quantity = payload.quantity;
		} else ignoredFields.push(field);
	}
	return { patch, ignoredFields };
}
