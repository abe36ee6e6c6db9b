import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/oneRequestRouting';

export const vendorGetOperation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the vendor profile: webhook URL and notification preferences',
	description: 'Get the webhook URL and communication preferences of the vendor that owns the credential',
	routing: withActionableErrors({ request: { method: 'GET', url: '/v1/vendor' } }, { subject: () => ({ kind: 'vendor' }) }),
};

export const vendorGetFields: INodeProperties[] = [];
