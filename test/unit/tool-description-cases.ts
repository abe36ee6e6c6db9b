// What an AI agent must read about each operation (tool-descriptions.test.ts); every operation has a row
// (operation-registry.test.ts).
/** Each operation: words its tool description must contain (what it acts on, and the input it needs). */
export const TOOL_DESCRIPTION_CASES: Array<[string, string, string[]]> = [
	['item', 'create', ['Create items', 'consignment ID', '500']],
	['item', 'upsert', ['Create or update an item', 'vendor SKU']],
	['item', 'update', ['Update an item', 'item ID']],
	['item', 'getAll', ['Get many items', 'validation status', 'vendor SKU']],
	['item', 'getNonApproved', ['non approved items', 'status', 'quantity']],
	['address', 'create', ['Create a US address', 'name', 'street', 'city', 'state', 'ZIP', 'phone']],
	['address', 'update', ['Update an active address', 'address ID']],
	['address', 'delete', ['Delete an address', 'address ID']],
	['address', 'getAll', ['Get many addresses']],
	['vendor', 'get', ['vendor profile', 'webhook URL']],
	['vendor', 'update', ['webhook URL']],
	['consignment', 'get', ['Get a consignment', 'ID']],
	['consignment', 'getAll', ['Get many consignments']],
	['order', 'cancel', ['Cancel an order', 'platform SKU']],
];

