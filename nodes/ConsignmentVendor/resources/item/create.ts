/**
 * Item → Create, batched (helpers/batchRunner.ts): grouped by consignment, at most 500 per POST, each answer mapped
 * back per item (helpers/itemCreations.ts, which Create or Update's new items are sent with too).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runBatched } from './helpers/batchRunner';
import { consignmentLocator } from '../../shared/resourceLocators';
import { creations, readConsignmentId } from './helpers/itemCreations';
import { itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { enteredVendorSku, readerForItem, readItemCreationInput } from './helpers/itemPayload';
import { isPreview } from './helpers/itemPreview';
import { ledgeredCreations } from './helpers/ledgeredCreations';
import { DEFAULT_LISTED_WITHIN_HOURS, readSendAgain, sendAgainField } from './helpers/ledgerFields';
import { fingerprintOf } from './helpers/rowFingerprint';
import { SubmissionLedger } from './helpers/submissionLedger';
import { serviceKeyOf } from '../../shared/listOperation';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create items in a consignment by consignment ID, up to 500 per request',
	description:
		'Submit new items (vendor SKU, category, condition, designer, images, quantity, prices) to the consignment with the given ID, up to 500 per request',
};

const displayOptions = { show: { resource: ['item'], operation: ['create'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [
	consignmentLocator({
		description:
			'Consignment the items are created in. Consignments cannot be created through the API: ask the service for one.',
	}),
	...fieldMappingProperties('create'),
	...itemInputFields(),
	{
		displayName:
			'All input items are sent together, at most 500 per request per consignment. The service answers without item IDs: each item\'s item_id arrives later by webhook (Consignment Vendor Trigger, "successful_item_upload"). The output says "submitted".',
		name: 'createNotice',
		type: 'notice',
		default: '',
	},
	sendAgainField(),
]);

/**
 * A preview sends nothing and claims nothing. A real run creates through the account's ledger, so a SKU that another
 * run, node or workflow submitted and the service has not listed yet is not sent twice (its output says "awaiting the
 * service"); it holds the rows it submits for the default window, as Create or Update does.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const preview = isPreview(this);
	const ledger = preview
		? undefined
		: SubmissionLedger.open(this, await serviceKeyOf(this), { sendAgain: readSendAgain(this.getNodeParameter('sendAgain', 0, '')) });
	const batch = ledger
		? ledgeredCreations(creations, ledger, DEFAULT_LISTED_WITHIN_HOURS * 3_600_000, (row) => fingerprintOf(row.payload, row.consignmentId))
		: creations;
	try {
		return await runBatched(
			this,
			{
				enteredSku: (context, itemIndex) => enteredVendorSku(readerForItem(context, itemIndex)),
				read: (context, itemIndex) => ({
					itemIndex,
					consignmentId: readConsignmentId(context, itemIndex),
					payload: readItemCreationInput(readerForItem(context, itemIndex), itemIndex),
				}),
				batch,
			},
			preview,
		);
	} finally {
		ledger?.save();
	}
}
