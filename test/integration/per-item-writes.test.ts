// The writing per-item operations (Address Create/Update/Delete, Order Cancel, Vendor Update, Item Update) check every
// row before their first request, and a failure after some rows were carried out names them and never advises running
// the node again: following that advice used to create every address before the failure a second time.
import { ADDRESS_PARAMETERS_FROM_JSON, validAddress } from './address-input';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const createAddresses = { resource: 'address', operation: 'create', ...ADDRESS_PARAMETERS_FROM_JSON };
const rows = (count: number) => Array.from({ length: count }, (_, n) => validAddress({ address1: `${n + 1} Sync St` }));
const describedBy = (error: unknown) => `${(error as Error).message} ${(error as { description?: string }).description ?? ''}`;

describe('writing per-item operations: every row checked before the first request', () => {
	it('Address Create: 60 valid rows and a bad phone at index 60 send nothing', async () => {
		const input = [...rows(60), validAddress({ address1: 'Bad phone', phone: '+1 757-555-0199' })];
		const { result, requests } = await runNode(sandbox(), createAddresses, { inputItems: input });
		expect(result.error?.message).toMatch(/Item index 60: phone/);
		expect(describedBy(result.error)).toMatch(/Nothing was sent/);
		expect(requests).toEqual([]);
	});

	it('Order Cancel: an empty sku in the last row sends no cancellation', async () => {
		const parameters = { resource: 'order', operation: 'cancel', sku: '={{ $json.sku }}' };
		const { result, requests } = await runNode(sandbox(), parameters, { inputItems: [{ sku: 'TRR-ORD-000001' }, { sku: '' }] });
		expect(result.error?.message).toMatch(/Item index 1/);
		expect(requests).toEqual([]);
	});
});

describe('a failure after rows were carried out', () => {
	it('names the rows carried out and says to send only the others, never to run the node again', async () => {
		// The service refuses the 31st creation (a refusal the node could not foresee).
		await sandbox().admin.addFault({ kind: 'status', status: 422, method: 'POST', pathPrefix: '/v1/vendor/addresses', skip: 30, body: { error: 'refused' } });
		const { result, requests } = await runNode(sandbox(), { ...createAddresses, requestOptions: { maxConcurrent: 1 } }, { inputItems: rows(40) });
		expect(requests.filter((request) => request.status === 201)).toHaveLength(30);
		const said = describedBy(result.error);
		expect(said).toMatch(/30 of the 40 items were carried out \(item index 0-29\): do not send them again/);
		expect(said).toMatch(/Not sent: 9 items \(item index 31-39\)\. Send again only the items failed or not sent/);
		expect(said).not.toMatch(/run the node again|Run the workflow again/i);
	});
});
