/**
 * A listing written into a file, page by page (`Output: File`): the one paginator feeds a bounded hand-off
 * (RecordFeed), each part of the file pulls from it as n8n's binary storage takes the bytes (PartStream). A
 * failure or a cancellation anywhere fails the whole input item: parts already stored are never output, so no
 * half file reaches the next node as if it were the listing.
 */
import type { IDataObject, IExecuteFunctions, IBinaryData, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../../shared/errors';
import { isJsonObject } from '../../../shared/jsonObject';
import { readPages, type Listing, type PagingOptions } from '../../../shared/pagination';
import { csvEncoder, FORMATS, jsonLinesEncoder, type LineEncoder } from './fileEncoding';
import { readFileSettings, type FileSettings } from './fileFields';
import type { RowRules } from './fileRows';
import { PartStream } from './partStream';
import { RecordFeed } from './recordFeed';

/** Records waiting for storage before the next page is asked for: about two pages of 100. */
const MAX_RECORDS_WAITING = 200;

type BinaryInput = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

export interface FileExport {
	fetchPage: (query: IDataObject) => Promise<IDataObject | undefined>;
	listing: Listing;
	paging: PagingOptions & { itemIndex: number };
	/** The record as the items output would show it (simplified or whole). */
	recordOf: (record: unknown) => IDataObject;
	/** The CSV columns when they are fixed (Simplify); otherwise those of the first page, plus other_fields. */
	columns?: readonly string[];
	priceFields: readonly string[];
	priceCurrency: boolean;
	/** The file's name when the user gave none (e.g. `items`). */
	defaultName: string;
}

function encoderFor(settings: FileSettings, job: FileExport, rules: RowRules, firstPage: readonly IDataObject[]): LineEncoder {
	if (settings.format === 'jsonLines') return jsonLinesEncoder(rules);
	if (job.columns) return csvEncoder(job.columns, false, rules);
	const columns = new Set<string>();
	for (const record of firstPage) for (const key of Object.keys(record)) columns.add(key);
	return csvEncoder([...columns], true, rules);
}

function partName(base: string, part: number, parts: number, extension: string): string {
	return parts > 1 ? `${base}-part-${part}.${extension}` : `${base}.${extension}`;
}

export async function exportToFile(context: IExecuteFunctions, job: FileExport): Promise<INodeExecutionData[]> {
	const { itemIndex } = job.paging;
	const node = context.getNode();
	const settings = readFileSettings(context, itemIndex);
	const rules: RowRules = { priceFields: job.priceFields, priceCurrency: job.priceCurrency, dollars: settings.dollars };
	const { extension, mimeType } = FORMATS[settings.format];
	const base = (settings.fileName || job.defaultName).replace(/\.(csv|jsonl)$/i, '');
	const cancelSignal = context.getExecutionCancelSignal?.();
	const checkCancelled = () => {
		if (cancelSignal?.aborted) throw new NodeOperationError(node, 'The execution was cancelled: the file was not finished', { itemIndex });
	};

	// CSV with fixed columns (Simplify's) reads only those fields of each record: a simplified copy of a million
	// records would be a million objects built for nothing. Other files are written from the record as the items
	// output shows it.
	const rowSource =
		settings.format === 'csv' && job.columns ? (record: unknown) => (isJsonObject(record) ? record : job.recordOf(record)) : job.recordOf;
	const feed = new RecordFeed<IDataObject>(MAX_RECORDS_WAITING);
	const fetchWhenRoom = async (query: IDataObject) => {
		await feed.room();
		checkCancelled();
		return await job.fetchPage(query);
	};
	let total = 0;
	const reading = readPages(fetchWhenRoom, job.listing, job.paging, (record) => {
		total++;
		feed.push(rowSource(record));
	}).then(
		() => feed.end(),
		(error: unknown) => feed.fail(error),
	);

	const parts: Array<{ binary: IBinaryData; records: number }> = [];
	try {
		await feed.peek();
		const encoder = encoderFor(settings, job, rules, feed.waitingNow());
		for (;;) {
			const stream = new PartStream(feed, encoder, settings.maxPartBytes, checkCancelled);
			const binary = await context.helpers.prepareBinaryData(
				stream as unknown as BinaryInput,
				partName(base, parts.length + 1, 2, extension),
				mimeType,
			);
			parts.push({ binary, records: stream.records });
			if (!stream.full) break;
		}
		checkCancelled();
	} catch (error) {
		feed.fail(error);
		await reading;
		// The paginator's errors are mapped already (kept as they are); a storage failure becomes one naming the item.
		throw toNodeApiError(node, error, { itemIndex });
	}
	await reading;

	const pairedItem = { item: itemIndex };
	return parts.map(({ binary, records }, index) => {
		const fileName = partName(base, index + 1, parts.length, extension);
		return {
			json: {
				fileName,
				fileFormat: settings.format,
				part: index + 1,
				parts: parts.length,
				records,
				totalRecords: total,
				filters: job.listing.query,
			},
			binary: { data: { ...binary, fileName, fileExtension: extension } },
			pairedItem,
		};
	});
}
