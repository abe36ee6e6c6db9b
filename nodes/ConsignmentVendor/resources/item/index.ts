/** The `item` resource. Every item operation runs its own function (batched creation, upsert, listings of any size, Update). */
import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/operationSelector';
import * as create from './create';
import * as getAll from './getAll';
import * as getNonApproved from './getNonApproved';
import { getMappingColumns } from './helpers/itemColumns';
import { previewOnlyProperties } from './helpers/itemPreview';
import * as update from './update';
import * as upsert from './upsert';

export const operations = operationSelector('item', [create.option, upsert.option, getAll.option, getNonApproved.option, update.option], 'create');

export const fields: INodeProperties[] = [
	...create.fields,
	...update.fields,
	...upsert.fields,
	...previewOnlyProperties,
	...getAll.fields,
	...getNonApproved.fields,
];

/** For the node's `methods.resourceMapping`: the columns of the item fields' column mapper (Map Automatically). */
export const resourceMapping = { getMappingColumns };

export const executeByOperation = {
	create: create.execute,
	update: update.execute,
	upsert: upsert.execute,
	getAll: getAll.execute,
	getNonApproved: getNonApproved.execute,
};
