import { defineResource } from '../../shared/resource';
import * as create from './create';
import * as getAll from './getAll';
import * as getNonApproved from './getNonApproved';
import { getMappingColumns } from './helpers/itemColumns';
import { previewOnlyProperties } from './helpers/itemPreview';
import * as update from './update';
import * as upsert from './upsert';

export const item = defineResource(
	{ name: 'item', displayName: 'Item', defaultOperation: 'create', summary: 'submit and update consignment items' },
	[create, upsert, getAll, getNonApproved, update],
	previewOnlyProperties,
);

/** For the node's `methods.resourceMapping`: the columns of the item fields' column mapper (Map Automatically). */
export const resourceMapping = { getMappingColumns };
