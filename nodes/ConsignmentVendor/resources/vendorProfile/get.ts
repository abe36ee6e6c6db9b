import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, perItem, requestForItem } from '../../shared/itemRunner';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the vendor profile: webhook URL and notification preferences',
	description: 'Get the webhook URL and communication preferences of the vendor that owns the credential',
};

export const fields: INodeProperties[] = [];

export const execute = perItem({
	read: () => undefined,
	send: async (context, _input, itemIndex, stop) =>
		answerJson(await requestForItem(context, itemIndex, stop, { method: 'GET', url: apiPaths.vendor }, { kind: 'vendor' })),
});
