import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asJsonObject } from '../../../../shared/jsonObject';
import { isPriceUnit, type PriceUnit } from '../../../../shared/money';
import {
	InputValidationError,
	parseApprovedItemUpdateInput,
	parseItemCreationInput,
	parseItemUpdateInput,
	type ApprovedItemPatch,
	type ItemPayload,
} from '../../../shared/schemas';
import { mappedColumns, usesColumnMapper } from './itemColumns';

/** One input item's parameters; `nodeVersion` decides which parameters exist (itemColumns.ts, itemMapping.ts). */
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

/** Update maps columns only in its "all fields" mode. */
function mapsAutomatically(read: ParameterReader): boolean {
	const approvedUpdate = read('operation', '') === 'update' && read('fieldsToSend', 'all') === 'approved';
	return usesColumnMapper(read.nodeVersion, read('fieldMapping', 'manual')) && !approvedUpdate;
}

function mappedRow(read: ParameterReader): IDataObject | undefined {
	return mapsAutomatically(read) ? mappedColumns(read('itemColumns', {}), read.inputJson) : undefined;
}

export function readItemIdToUpdate(read: ParameterReader): unknown {
	const row = mappedRow(read);
	return row ? row.item_id : read('itemId', '');
}

/** To label a failure before the item was validated. */
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

function rawItemFromRow(row: IDataObject): IDataObject {
	const { image_front: front, image_back: back, ...fields } = row;
	delete fields.item_id; // Update's path, not a body field
	return { ...fields, image: { front, back } };
}

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

export function readItemCreationInput(read: ParameterReader, itemIndex: number): ItemPayload {
	return readItem(read, itemIndex, parseItemCreationInput);
}

export function readItemUpdateInput(read: ParameterReader, itemIndex: number): ItemPayload {
	return readItem(read, itemIndex, parseItemUpdateInput);
}

export function readApprovedItemPatch(read: ParameterReader, itemIndex: number): ApprovedItemPatch {
	const fields = asJsonObject(read('approvedItemFields', {})) ?? {};
	return parseApprovedItemUpdateInput({ address_id: fields.addressId, quantity: fields.quantity }, itemIndex);
}
