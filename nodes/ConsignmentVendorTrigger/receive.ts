/**
 * `webhook()`: one incoming delivery -> verified, parsed, filtered, normalised -> at most one item.
 *
 * Answers (n8n conventions, as in its Telegram trigger):
 * - refused requests are answered here through the response object and return
 *   `{noWebhookResponse: true}` without `workflowData`, so nothing starts;
 * - a filtered-out event returns neither, so n8n answers 200 ("Webhook call received") and starts nothing;
 * - an accepted event returns `workflowData`; with `responseMode: 'onReceived'` n8n answers 200 at once.
 * No answer carries anything derived from the signing secret or the credential.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isEventSelected, normaliseEvent, type NormalisedEvent } from './events';
import { absoluteHttpUrl, downloadLabel } from './label';
import { declaresJson, headerOf, parseJsonObject, readRawBody } from './request';
import { isValidSignature, SIGNATURE_HEADER } from './signature';
import { CREDENTIAL_TYPE } from './vendorApi';

export interface TriggerOptions {
	includeRawBody?: boolean;
	downloadLabel?: boolean;
	labelBinaryProperty?: string;
}

function refuse(context: IWebhookFunctions, status: 400 | 401, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

async function signingSecretOf(context: IWebhookFunctions): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const secret = credentials.webhookSigningSecret;
	return typeof secret === 'string' ? secret : '';
}

function toItemJson(event: NormalisedEvent, body: IDataObject, options: TriggerOptions): IDataObject {
	const json: IDataObject = { event: event.event, ...event.fields };
	if (options.includeRawBody === true) json.raw_body = body;
	return json;
}

async function withLabel(
	context: IWebhookFunctions,
	item: INodeExecutionData,
	options: TriggerOptions,
): Promise<INodeExecutionData> {
	const { json } = item;
	const property = options.labelBinaryProperty?.trim() || 'data';
	const fallbackName = `label-${String(json.sku ?? json.vendor_sku ?? 'item')}.pdf`;
	const label = await downloadLabel(context, json.pdf_url, fallbackName);
	if ('error' in label) return { json: { ...json, label_error: label.error } };
	return { json, binary: { [property]: label.binary } };
}

function wantsLabel(event: NormalisedEvent, options: TriggerOptions): boolean {
	return options.downloadLabel === true && event.event === 'item_purchased' && event.fields.pdf_url != null;
}

export async function receiveWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const rawBody = await readRawBody(this);

	const secret = await signingSecretOf(this);
	if (secret !== '') {
		// Checked on the raw bytes before anything is parsed: unsigned input is never interpreted.
		if (rawBody === undefined || !isValidSignature(rawBody, headerOf(this, SIGNATURE_HEADER), secret)) {
			return refuse(this, 401, 'Unauthorized');
		}
	}

	const parsed = parseJsonObject(rawBody, this.getBodyData(), declaresJson(this));
	if (!parsed.ok) return refuse(this, 400, 'Bad request: the body must be a JSON object');

	const event = normaliseEvent(parsed.body);
	const selected = this.getNodeParameter('events', ['*']) as string[];
	if (!isEventSelected(event.event, Array.isArray(selected) ? selected : [])) return {};

	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	let item: INodeExecutionData = { json: toItemJson(event, parsed.body, options) };

	if (wantsLabel(event, options)) {
		if (absoluteHttpUrl(event.fields.pdf_url) !== undefined) {
			// A download can take a while; the sender gets its 200 first (n8n still starts the workflow,
			// as it does for any node that answered itself and returned workflowData).
			this.getResponseObject().status(200).json({ message: 'Workflow was started' });
			item = await withLabel(this, item, options);
			return { noWebhookResponse: true, workflowData: [[item]] };
		}
		item = await withLabel(this, item, options);
	}

	return { workflowData: [[item]] };
}
