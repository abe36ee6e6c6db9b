/**
 * The item fields as columns for n8n's column mapper (`resourceMapper`): one column per creation input of the
 * contract (docs/vendor-api.md, "Item creation input"), named exactly as the API names it, so a sheet whose
 * headers are the contract's names maps with no expression. `image` is an object in the API and two columns
 * here (image_front, image_back): a sheet cell holds one value.
 *
 * Types and required marks are the contract's: Update needs every creation field again (contract rule 5 of
 * Items), plus the item_id it matches on; Upsert matches on vendor_sku.
 *
 * Also what is read back from the mapper (`mappedColumns`), so reading an item (itemPayload.ts) needs this table
 * only, not the parameters that show it (itemMapping.ts).
 */
import type { FieldType, IDataObject, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { isPriceUnit, type PriceUnit } from '../../../../shared/money';

interface ItemColumn {
	id: string;
	displayName: string;
	type: FieldType;
	required: boolean;
}

/** The creation inputs, in the contract's order. */
const ITEM_COLUMNS: readonly ItemColumn[] = [
	{ id: 'vendor_sku', displayName: 'Vendor SKU (vendor_sku)', type: 'string', required: true },
	{ id: 'upc', displayName: 'UPC (upc, required for watches/)', type: 'string', required: false },
	{ id: 'taxon_permalink', displayName: 'Taxon Permalink (taxon_permalink)', type: 'string', required: true },
	{ id: 'condition', displayName: 'Condition (condition)', type: 'string', required: true },
	{ id: 'with_tags', displayName: 'With Tags (with_tags)', type: 'boolean', required: true },
	{ id: 'designer', displayName: 'Designer (designer)', type: 'string', required: true },
	{ id: 'image_front', displayName: 'Front Image URL (image_front)', type: 'string', required: true },
	{ id: 'image_back', displayName: 'Back Image URL (image_back)', type: 'string', required: true },
	{ id: 'quantity', displayName: 'Quantity (quantity)', type: 'number', required: true },
	{ id: 'msrp', displayName: 'MSRP in Price Unit (msrp)', type: 'number', required: true },
	{ id: 'price', displayName: 'Price in Price Unit (price)', type: 'number', required: true },
	{ id: 'gender', displayName: 'Gender: Men, Women or Both (gender)', type: 'array', required: true },
	{
		id: 'taxon_specific_attributes',
		displayName: 'Taxon-Specific Attributes, JSON Object (taxon_specific_attributes)',
		type: 'object',
		required: true,
	},
	{ id: 'address_id', displayName: 'Address ID (address_id)', type: 'string', required: false },
	{
		id: 'designer_specific_attributes',
		displayName: 'Designer-Specific Attributes, JSON Object (designer_specific_attributes)',
		type: 'object',
		required: false,
	},
];

/** The column Update matches the item on: the platform item ID used in PATCH /v1/items/{item_id}. */
const ITEM_ID_COLUMN: ItemColumn = { id: 'item_id', displayName: 'Item ID (item_id)', type: 'number', required: true };

/** The column each operation matches on (Create matches on nothing: it always creates). */
export const MATCHING_COLUMN: Readonly<Record<string, string | undefined>> = { update: 'item_id', upsert: 'vendor_sku' };

const UNIT_LABELS: Record<PriceUnit, string> = { cents: 'Cents', dollars: 'Dollars' };

/**
 * The columns of `operation`, as the mapper shows them; the amounts say the unit they are read in, where the user maps
 * them. Only the matching column can be used to match.
 */
export function columnsFor(operation: string, unit?: PriceUnit): ResourceMapperField[] {
	const matching = MATCHING_COLUMN[operation];
	const columns = operation === 'update' ? [ITEM_ID_COLUMN, ...ITEM_COLUMNS] : ITEM_COLUMNS;
	return columns.map((column) => ({
		...column,
		displayName: unit && (column.id === 'msrp' || column.id === 'price') ? column.displayName.replace('Price Unit', UNIT_LABELS[unit]) : column.displayName,
		display: true,
		defaultMatch: column.id === matching,
		canBeUsedToMatch: column.id === matching,
	}));
}

/** `methods.resourceMapping.getMappingColumns`: the item columns of the node's current operation. */
export async function getMappingColumns(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const unit = this.getCurrentNodeParameter('priceUnit');
	return { fields: columnsFor(String(this.getNodeParameter('operation', 'create')), isPriceUnit(unit) ? unit : undefined) };
}

/** From this node version the column mapper is the only way to give the item fields (itemMapping.ts). */
export const COLUMN_MAPPER_ONLY_FROM = 1.1;

export function usesColumnMapper(nodeVersion: number, fieldMapping: unknown): boolean {
	return nodeVersion >= COLUMN_MAPPER_ONLY_FROM || fieldMapping === 'auto';
}

/** n8n's column mapper mode that holds the values set in the node (the other, autoMapInputData, reads the input item). */
const DEFINE_BELOW = 'defineBelow';

/** What the column mapper stored (the parts this node reads). */
interface MapperValue {
	mappingMode?: unknown;
	value?: unknown;
}

/** Only the item columns are kept: a sheet row carries others (row_number, notes...) that are not the service's. */
export function mappedColumns(mapper: unknown, inputJson: () => IDataObject): IDataObject {
	const { mappingMode, value } = (mapper ?? {}) as MapperValue;
	const source = (mappingMode === DEFINE_BELOW ? value : inputJson()) ?? {};
	const row: IDataObject = {};
	// Update's columns are every column: the creation inputs and item_id.
	for (const { id } of columnsFor('update')) {
		const cell = (source as IDataObject)[id];
		if (cell !== undefined && cell !== null) row[id] = cell;
	}
	return row;
}
