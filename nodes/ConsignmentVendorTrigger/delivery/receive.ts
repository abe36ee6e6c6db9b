/**
 * Answers (n8n conventions, as in its Telegram trigger): refused requests are answered here and return
 * `{noWebhookResponse: true}` without `workflowData`; a filtered-out or repeated event returns neither (n8n answers
 * 200 and starts nothing); an accepted event returns `workflowData`, answered 200 at once ('onReceived').
 * No answer carries anything derived from the signing secret or the credential.
 */
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isEventSelected, normaliseEvent, type NormalisedEvent } from './events';
import { httpUrl } from '../../shared/httpUrl';
import { downloadLabel } from '../label/downloadLabel';
import { remembersRegistration } from '../registration/registrationMemory';
import { deliveryIdentity, isRepeatedDelivery } from './repeatedDeliveries';
import { declaresJson, headerOf, parseJsonObject, readRawBody } from './request';
import { isValidSignature, SIGNATURE_HEADER } from './signature';
import { readTriggerOptions, type TriggerOptions } from '../triggerOptions';
import { CREDENTIAL_TYPE } from '../../shared/credential';
import { WEBHOOK_NAME } from '../registration/webhookUrls';

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
	if (options.includeRawBody) json.raw_body = body;
	return json;
}

async function withLabel(
	context: IWebhookFunctions,
	item: INodeExecutionData,
	options: TriggerOptions,
	signed: boolean,
): Promise<INodeExecutionData> {
	const { json } = item;
	const fallbackName = `label-${String(json.sku ?? json.vendor_sku ?? 'item')}.pdf`;
	const label = await downloadLabel(context, json.pdf_url, fallbackName, {
		signed,
		trustedHosts: options.labelTrustedHosts,
		allowPrivate: options.labelAllowPrivateHosts,
		maxBytes: Math.round(options.labelMaxSizeMb * 1_048_576),
		timeoutMs: Math.round(options.labelTimeoutSeconds * 1000),
	});
	if ('error' in label) return { json: { ...json, label_error: label.error } };
	return { json, binary: { [options.labelBinaryProperty]: label.binary } };
}

function wantsLabel(event: NormalisedEvent, options: TriggerOptions): boolean {
	return options.downloadLabel && event.event === 'item_purchased' && event.fields.pdf_url != null;
}

/**
 * True when production already received this event within the window. Test events are never ignored: the
 * editor shows what arrives, and n8n gives test listening throwaway static data anyway.
 */
function isRepeat(context: IWebhookFunctions, event: NormalisedEvent, rawBody: Buffer | undefined, body: IDataObject, options: TriggerOptions): boolean {
	if (!options.ignoreRepeatedDeliveries || context.getMode() === 'manual') return false;
	const staticData = context.getWorkflowStaticData('node');
	const productionUrl = context.getNodeWebhookUrl(WEBHOOK_NAME);
	return isRepeatedDelivery({
		staticData,
		// A copy without this trigger's registration may predate the activation: n8n must not save it.
		persist: productionUrl !== undefined && remembersRegistration(staticData, productionUrl),
		scope: `${context.getWorkflow().id ?? ''} ${productionUrl ?? context.getNode().name}`,
		identity: deliveryIdentity(event, rawBody, body),
		windowHours: options.repeatWindowHours,
	});
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

	const options = readTriggerOptions(this);
	// n8n answers 200 "Webhook call received" and starts nothing.
	if (isRepeat(this, event, rawBody, parsed.body, options)) return {};

	let item: INodeExecutionData = { json: toItemJson(event, parsed.body, options) };

	if (wantsLabel(event, options)) {
		if (httpUrl(event.fields.pdf_url) !== undefined) {
			// A download can take a while; the sender gets its 200 first (n8n still starts the workflow,
			// as it does for any node that answered itself and returned workflowData).
			this.getResponseObject().status(200).json({ message: 'Workflow was started' });
			item = await withLabel(this, item, options, secret !== '');
			return { noWebhookResponse: true, workflowData: [[item]] };
		}
		item = await withLabel(this, item, options, secret !== '');
	}

	return { workflowData: [[item]] };
}
