import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, perItem, recordPath, requestForItem, unwrapped } from '../../shared/itemRunner';
import { consignmentLocator } from '../../shared/resourceLocators';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a consignment by ID with its status and number of items',
	description: 'Get the status, dates and number of items of the consignment with the given ID',
};

const displayOptions = { show: { resource: ['consignment'], operation: ['get'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [consignmentLocator({})]);

export const execute = perItem({
	read: (context, itemIndex) =>
		recordPath(context, itemIndex, { parameter: 'consignmentId', label: 'Consignment', path: apiPaths.consignment }),
	async send(context, { id, path }, itemIndex, stop) {
		const answer = await requestForItem(context, itemIndex, stop, { method: 'GET', url: path }, { kind: 'consignment', id: String(id) });
		// The service wraps the record: {consignment: {...}}.
		return answerJson(unwrapped(answer, 'consignment'));
	},
});
