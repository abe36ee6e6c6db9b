// The node's operations as its registry holds them (RESOURCES, each resource's defineResource list): what tests that
// enumerate operations read, so none keeps a list by hand that a new operation could be missing from.
import type { INodePropertyOptions } from 'n8n-workflow';

import { RESOURCES } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { listingOf } from '../../nodes/ConsignmentVendor/shared/listOperation';

export const OPERATIONS = RESOURCES.flatMap((resource) =>
	(resource.selector.options as INodePropertyOptions[]).map((option) => {
		const operation = String(option.value);
		return { resource, option, operation, listing: listingOf(resource.executors.get(operation)) };
	}),
);

/** The list operations: those whose `execute` is a `listOperation` (shared/listOperation.ts). */
export const LIST_OPERATIONS = OPERATIONS.filter(({ listing }) => listing !== undefined).map((entry) => ({ ...entry, listing: entry.listing! }));
