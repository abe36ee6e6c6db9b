/**
 * From version 1.1 the item fields have one choice on screen, as in n8n's Postgres (2.2+) and Google Sheets (4+):
 * the column mapper (itemColumns.ts) with its own automatic/manual mode. Version 1 keeps its Field Mapping
 * selector, default Manual: n8n does not store parameters left at their default, so a version-1 workflow saved
 * before the selector existed reads Manual and keeps working. Changing a default or removing a parameter needs a
 * new node version: hence 1.1, where what shows only for a Field Mapping value is hidden.
 */
import type { INodeProperties } from 'n8n-workflow';

import { COLUMN_MAPPER_ONLY_FROM, columnsFor, MATCHING_COLUMN } from './itemColumns';

export type FieldMapping = 'manual' | 'auto';

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/** n8n's column mapper mode that reads the input item (itemColumns.ts reads what either mode stored). */
const AUTO_MAP_INPUT_DATA = 'autoMapInputData';

const MAPPER_MODE: Readonly<Record<string, 'add' | 'update' | 'upsert'>> = { create: 'add', update: 'update', upsert: 'upsert' };

/** Where the column mapper (and its notice) shows: on version 1 under Map Automatically, from 1.1 always. */
function whereTheMapperShows(show: Show): Array<INodeProperties['displayOptions']> {
	return [
		{ show: { ...show, fieldMapping: ['auto'], '@version': [1] } },
		{ show: { ...show, '@version': [{ _cnd: { gte: COLUMN_MAPPER_ONLY_FROM } }] } },
	];
}

/**
 * `operation` chooses the mapper's columns and mode; `extra` narrows where they show (Update: all fields). The
 * operation's file adds its resource and operation (updateDisplayOptions).
 */
export function fieldMappingProperties(operation: string, extra: Show = {}): INodeProperties[] {
	const show = { ...extra };
	const matching = MATCHING_COLUMN[operation];
	const columnNames = columnsFor(operation).map((column) => column.id);
	const notice: INodeProperties = {
		displayName: `Map Automatically reads the input fields ${columnNames.join(', ')}; other input fields are ignored.${
			matching ? ` The item is found by ${matching}.` : ''
		} Gender: Men, Women or "Men, Women". JSON objects may be JSON text.`,
		name: 'fieldMappingNotice',
		type: 'notice',
		default: '',
	};
	const mapper: INodeProperties = {
		displayName: 'Item Fields',
		name: 'itemColumns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: AUTO_MAP_INPUT_DATA, value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['operation', 'priceUnit'],
			resourceMapper: {
				resourceMapperMethod: 'getMappingColumns',
				mode: MAPPER_MODE[operation],
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
	};
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
			displayOptions: { show: { ...show, '@version': [1] } },
		},
		...whereTheMapperShows(show).flatMap((displayOptions) => [
			{ ...notice, displayOptions },
			{ ...mapper, displayOptions },
		]),
	];
}
