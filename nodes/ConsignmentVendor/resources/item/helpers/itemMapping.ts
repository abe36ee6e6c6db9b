/**
 * Field Mapping for Create, Update and Upsert: "Map Each Field Manually" (the node's item parameters, as in every
 * version of this node) or "Map Automatically" (n8n's column mapper over the contract-named columns of
 * itemColumns.ts).
 *
 * The selector's default is Manual, on purpose: n8n stores a workflow's parameters without those left at their
 * default and fills missing ones from the node's current description when it loads the workflow. A workflow
 * saved before this selector existed has none, so it reads the default and must keep working exactly as
 * before. (A node version bump would let new nodes start in automatic mode; one version keeps the package
 * simpler while the manual mode is what existing workflows need.)
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { columnsFor, MATCHING_COLUMN } from './itemColumns';

export type FieldMapping = 'manual' | 'auto';

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/** n8n's column mapper modes: `autoMapInputData` reads the input item, `defineBelow` the values set in the node. */
const AUTO_MAP_INPUT_DATA = 'autoMapInputData';
const DEFINE_BELOW = 'defineBelow';

const MAPPER_MODE: Readonly<Record<string, 'add' | 'update' | 'upsert'>> = { create: 'add', update: 'update', upsert: 'upsert' };

/** The selector and the column mapper of one operation; `extra` narrows where they show (Update: all fields). */
export function fieldMappingProperties(operation: string, extra: Show = {}): INodeProperties[] {
	const show = { resource: ['item'], operation: [operation], ...extra };
	const matching = MATCHING_COLUMN[operation];
	const columnNames = columnsFor(operation).map((column) => column.id);
	return [
		{
			displayName: 'Field Mapping',
			name: 'fieldMapping',
			type: 'options',
			noDataExpression: true,
			default: 'manual',
			description: 'How the item fields get their values',
			options: [
				{
					name: 'Map Each Field Manually',
					value: 'manual',
					description: 'Set each field below, with an expression where the value comes from the input',
				},
				{
					name: 'Map Automatically',
					value: 'auto',
					description:
						'Input fields named as the API names them (vendor_sku, taxon_permalink, price ...) are used as they are: a sheet with those column headers needs no expression',
				},
			],
			displayOptions: { show },
		},
		{
			displayName: `Columns used: ${columnNames.join(', ')}. Other input fields are ignored.${
				matching ? ` The item is found by ${matching}.` : ''
			} Gender: Men, Women or "Men, Women". JSON objects may be JSON text.`,
			name: 'fieldMappingNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, fieldMapping: ['auto'] } },
		},
		{
			displayName: 'Item Fields',
			name: 'itemColumns',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: AUTO_MAP_INPUT_DATA, value: null },
			required: true,
			typeOptions: {
				loadOptionsDependsOn: ['operation'],
				resourceMapper: {
					resourceMapperMethod: 'getMappingColumns',
					mode: MAPPER_MODE[operation],
					fieldWords: { singular: 'field', plural: 'fields' },
					addAllFields: true,
					multiKeyMatch: false,
					supportAutoMap: true,
				},
			},
			displayOptions: { show: { ...show, fieldMapping: ['auto'] } },
		},
	];
}

/** What the column mapper stored (the parts this node reads). */
interface MapperValue {
	mappingMode?: unknown;
	value?: unknown;
}

/**
 * The item's columns under their API names: from the input item in automatic mode, from the mapper's values
 * (expressions already resolved by n8n) when the user mapped each column. Only the item columns are kept: a
 * sheet row carries other columns (row_number, notes...) that are not the service's.
 */
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
