import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FileFormat } from './fileEncoding';

/**
 * Under the 512 MiB limit of n8n's database binary storage (2.x's default in queue mode), and small enough that the
 * modes holding a part whole in memory (in-memory on 1.x, database) need about twice this while storing it.
 */
export const DEFAULT_MAX_PART_SIZE_MB = 50;

export interface FileSettings {
	format: FileFormat;
	maxPartBytes: number;
	fileName: string;
	dollars: boolean;
}

export function outputsFile(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('output', itemIndex, 'items') === 'file';
}

export function readFileSettings(context: IExecuteFunctions, itemIndex: number): FileSettings {
	const node = context.getNode();
	const format = context.getNodeParameter('fileFormat', itemIndex, 'csv') as string;
	if (format !== 'csv' && format !== 'jsonLines') {
		throw new NodeOperationError(node, `File Format must be CSV or JSON Lines, got "${format}"`, { itemIndex });
	}
	const size = Number(context.getNodeParameter('maxPartSizeMb', itemIndex, DEFAULT_MAX_PART_SIZE_MB));
	if (!Number.isFinite(size) || size <= 0) {
		throw new NodeOperationError(node, `Max Part Size (MB) must be a number above 0, got ${String(size)}`, { itemIndex });
	}
	const options = context.getNodeParameter('fileOptions', itemIndex, {}) as IDataObject;
	return {
		format,
		maxPartBytes: Math.floor(size * 1024 * 1024),
		fileName: typeof options.fileName === 'string' ? options.fileName.trim() : '',
		dollars: options.priceColumns === 'centsAndDollars',
	};
}

/**
 * `prices`: the listing's records carry prices (the item listings), so the Price Columns option is offered. The
 * operation's file gives the resource and operation (updateDisplayOptions).
 */
export function fileOutputFields(prices = false): INodeProperties[] {
	const asFile = { output: ['file'] };
	return [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'items',
		options: [
			{ name: 'Items', value: 'items', description: 'One n8n item per record' },
			{
				name: 'File',
				value: 'file',
				description: 'One file (CSV or JSON Lines) as binary data, written page by page: for listings too large to hold as items',
			},
		],
		description: 'Whether to return the records as n8n items or written into a file',
		hint: 'n8n keeps every item of an execution in memory: for tens of thousands of records choose File and send it on with Google Drive, S3, FTP or Send Email',
	},
	{
		displayName: 'File Format',
		name: 'fileFormat',
		type: 'options',
		default: 'csv',
		displayOptions: { show: asFile },
		options: [
			{ name: 'CSV', value: 'csv', description: 'A header row, then one row per record (RFC 4180, UTF-8)' },
			{ name: 'JSON Lines', value: 'jsonLines', description: 'One JSON object per line, every field as the service sent it' },
		],
		description: 'The format of the file. CSV columns follow Simplify; nested objects become JSON text.',
	},
	{
		displayName: 'Max Part Size (MB)',
		name: 'maxPartSizeMb',
		type: 'number',
		default: DEFAULT_MAX_PART_SIZE_MB,
		typeOptions: { minValue: 0.001, numberPrecision: 3 },
		displayOptions: { show: asFile },
		description:
			'A listing larger than this is split into parts, each one output item and a whole file on its own (CSV parts repeat the header)',
		hint: "Keep it under n8n's binary data limit: 512 MB in database mode (queue mode's default). Database and in-memory modes hold a part whole in memory while storing it.",
	},
	{
		displayName: 'File Options',
		name: 'fileOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: asFile },
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. approved-items',
				description:
					'Name of the file without its extension; parts get "-part-2" and so on. Empty: the listing\'s name (e.g. items).',
			},
			...(prices
				? [
						{
							displayName: 'Price Columns',
							name: 'priceColumns',
							type: 'options' as const,
							default: 'cents',
							options: [
								{ name: 'Cents', value: 'cents', description: 'Prices as whole cents (1999), as the service uses them' },
								{
									name: 'Cents and Dollars',
									value: 'centsAndDollars',
									description: 'Also a dollars column beside each price, e.g. price_dollars (19.99)',
								},
							],
							description: 'How prices are written: always in cents, optionally with dollars beside them',
						},
					]
				: []),
		],
	},
	];
}
