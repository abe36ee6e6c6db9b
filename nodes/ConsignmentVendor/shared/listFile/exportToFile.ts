/**
 * A listing written into a file, page by page (`Output: File`): the one paginator hands each record to FileParts,
 * which writes its line at once into a bounded queue of chunks per part; n8n's binary storage takes the parts one
 * after the other (PartStream). A failure or a cancellation anywhere fails the whole input item: parts already
 * stored are never output, so no half file reaches the next node as if it were the listing.
 */
import type { IDataObject, IExecuteFunctions, IBinaryData, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../../shared/errors';
import { isJsonObject } from '../../../shared/jsonObject';
import { readPages, type Listing, type PagingOptions } from '../../../shared/pagination';
import { csvEncoder, FORMATS, jsonLinesEncoder, type LineEncoder } from './fileEncoding';
import { readFileSettings, type FileSettings } from './fileFields';
import type { RowRules } from './fileRows';
import { FileParts } from './fileParts';
import { PartStream } from './partStream';

/**
 * Bytes of lines waiting for storage before the next page is asked for: 16 chunks, enough for the disk to take its
 * time over a write or two without holding up the listing, small beside a part.
 */
const MAX_QUEUED_BYTES = 1024 * 1024;

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
	// Every field: the first page's columns, in the order they appear.
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
	const file = new FileParts(
		(firstPage) => encoderFor(settings, job, rules, firstPage),
		settings.format === 'csv' && !job.columns,
		settings.maxPartBytes,
		MAX_QUEUED_BYTES,
	);
	const fetchWhenRoom = async (query: IDataObject) => {
		file.pageDone();
		await file.room();
		checkCancelled();
		return await job.fetchPage(query);
	};
	let total = 0;
	const reading = readPages(fetchWhenRoom, job.listing, job.paging, (record) => {
		total++;
		file.add(rowSource(record));
	})
		// end() encodes a first page still held back: its failure, too, must reach storage's side.
		.then(() => file.end())
		.catch((error: unknown) => file.fail(error));

	const parts: Array<{ binary: IBinaryData; records: number }> = [];
	try {
		for (;;) {
			const part = await file.nextPart();
			if (part === undefined) break;
			const binary = await context.helpers.prepareBinaryData(
				new PartStream(file, part, checkCancelled) as unknown as BinaryInput,
				partName(base, parts.length + 1, 2, extension),
				mimeType,
			);
			// Storage that returned before the part's end would leave its last lines out of the file.
			if (!file.wasTaken(part)) throw new NodeOperationError(node, 'n8n stopped reading the file before its end', { itemIndex });
			parts.push({ binary, records: part.records });
		}
		checkCancelled();
	} catch (error) {
		file.fail(error);
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
