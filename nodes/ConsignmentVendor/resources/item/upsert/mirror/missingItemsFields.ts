/**
 * Create or Update's mirror parameters (names fixed by the product design): what happens to listed items whose
 * vendor_sku no input row has, and the guard that keeps an empty or truncated source from zeroing the catalogue.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export type MissingItemsMode = 'leave' | 'report' | 'setQuantityToZero';

export interface MissingItemsSettings {
	mode: Exclude<MissingItemsMode, 'leave'>;
	maxMissingPercent: number;
	maxMissingItems: number;
}

/** Safe defaults: a day's sales rarely take a tenth of a catalogue; a failed or filtered source read usually does. */
export const DEFAULT_MAX_MISSING_PERCENT = 10;
export const DEFAULT_MAX_MISSING_ITEMS = 250;

const show = { resource: ['item'], operation: ['upsert'] };

export const missingItemsFields: INodeProperties[] = [
	{
		displayName: 'Listed Items Not in the Input',
		name: 'missingItems',
		type: 'options',
		default: 'leave',
		options: [
			{ name: 'Leave Them', value: 'leave', description: 'Only the input rows are looked at (items not in the input are not touched)' },
			{
				name: 'Report Them',
				value: 'report',
				description: 'Add an output item for each listed item whose Vendor SKU no input row has; nothing is written to them',
			},
			{
				name: 'Set Their Quantity to 0',
				value: 'setQuantityToZero',
				description: 'Mirror the source: a listed item whose Vendor SKU no input row has is set to quantity 0, so it cannot be sold',
			},
		],
		description: 'What happens to items listed on the marketplace whose Vendor SKU is in none of the input rows',
		hint: 'The input must be the whole source (every SKU of the sheet or shop) in one execution: not split by a loop or by Batching',
		displayOptions: { show },
	},
	{
		displayName:
			'The input must hold every SKU of your source in this one execution, or the items of the missing SKUs are set to 0. Run with Preview Only first. An approved item set to 0 cannot be raised again (the service only lets its quantity go down): a piece back in stock needs a new Vendor SKU.',
		name: 'missingItemsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, missingItems: ['setQuantityToZero'] } },
	},
	{
		displayName: 'Max Missing Percent',
		name: 'maxMissingPercent',
		type: 'number',
		default: DEFAULT_MAX_MISSING_PERCENT,
		typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 1 },
		description:
			'The run stops before any write when more than this share of the items it could set to 0 would be (items already at 0, deleted or rejected are not counted): an empty or partial source read would otherwise zero the catalogue',
		hint: 'Raise it for one run when that many items really left the source; check with Preview Only first',
		displayOptions: { show: { ...show, missingItems: ['setQuantityToZero'] } },
	},
	{
		displayName: 'Max Missing Items',
		name: 'maxMissingItems',
		type: 'number',
		default: DEFAULT_MAX_MISSING_ITEMS,
		typeOptions: { minValue: 0 },
		description: 'The run stops before any write when more than this many listed items would be set to 0',
		displayOptions: { show: { ...show, missingItems: ['setQuantityToZero'] } },
	},
];

function numberParameter(context: IExecuteFunctions, name: string, fallback: number, max: number): number {
	const value = context.getNodeParameter(name, 0, fallback) as unknown;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
		throw new NodeOperationError(context.getNode(), `${name === 'maxMissingPercent' ? 'Max Missing Percent' : 'Max Missing Items'} must be a number from 0 to ${max}, got ${JSON.stringify(value)}`, {
			description: 'Nothing was sent.',
		});
	}
	return value;
}

/** Undefined for Leave Them (today's behaviour): the node then looks at the input rows only. Node-wide (item 0). */
export function missingItemsSettingsOf(context: IExecuteFunctions): MissingItemsSettings | undefined {
	const mode = context.getNodeParameter('missingItems', 0, 'leave') as MissingItemsMode;
	if (mode === 'leave') return undefined;
	if (mode !== 'report' && mode !== 'setQuantityToZero') {
		throw new NodeOperationError(context.getNode(), `Listed Items Not in the Input must be leave, report or setQuantityToZero, got ${JSON.stringify(mode)}`);
	}
	if (mode === 'report') return { mode, maxMissingPercent: 100, maxMissingItems: Number.POSITIVE_INFINITY };
	return {
		mode,
		maxMissingPercent: numberParameter(context, 'maxMissingPercent', DEFAULT_MAX_MISSING_PERCENT, 100),
		maxMissingItems: numberParameter(context, 'maxMissingItems', DEFAULT_MAX_MISSING_ITEMS, Number.MAX_SAFE_INTEGER),
	};
}
