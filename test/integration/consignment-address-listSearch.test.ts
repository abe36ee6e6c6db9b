// The searchable lists behind the Consignment and Address resource locators, against the sandbox. The
// load-options context is a small stand-in whose httpRequestWithAuthentication sends the request with a real
// token, so what is tested is the query sent, the paging and the filtering.
import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import { searchActiveAddresses, searchConsignments } from '../../nodes/ConsignmentVendor/shared/listSearch';
import type { RunningSandbox } from '../sandbox';
import { validAddress } from './address-input';
import { isTokenExchange, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

let contexts = 0;
/** What each request of a list search was sent with (n8n's request options). */
let sentWith: IDataObject[] = [];
beforeEach(() => {
	sentWith = [];
});

async function loadOptionsContext(sb: RunningSandbox, requestOptions: IDataObject = {}): Promise<ILoadOptionsFunctions> {
	const exchange = await fetch(`${sb.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ client_id: sb.clientId, client_secret: sb.clientSecret }),
	});
	const { bearer_token: bearer } = (await exchange.json()) as { bearer_token: string };
	const httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions) => {
		const url = new URL(`${options.baseURL}${options.url}`);
		for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
		sentWith.push({ timeout: options.timeout, proxy: options.proxy, skipSslCertificateValidation: options.skipSslCertificateValidation });
		const response = await fetch(url, { headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' } });
		const body = (await response.json()) as IDataObject;
		return options.returnFullResponse ? { statusCode: response.status, headers: {}, body } : body;
	};
	return {
		getCredentials: async () => ({ baseUrl: `${sb.baseUrl}/`, clientId: `list-search-${++contexts}` }),
		getNode: () => ({ id: 'n', name: 'Consignment Vendor', type: 'consignmentVendor', typeVersion: 1, position: [0, 0], parameters: {} }),
		// The load-options context's form: (name, fallback), the node's current parameters.
		getNodeParameter: (name: string, fallback: unknown) => (name === 'requestOptions' ? requestOptions : fallback),
		helpers: { httpRequestWithAuthentication },
	} as unknown as ILoadOptionsFunctions;
}

async function apiRequests() {
	return (await sandbox().admin.requests()).filter((r) => !isTokenExchange(r));
}

describe('resource locator lists', () => {
	it("honour the node's Request Options (Timeout, Proxy, Ignore SSL Issues) like every other request of the node", async () => {
		const context = await loadOptionsContext(sandbox(), { timeout: 1234, proxy: 'http://proxy.example.com:3128', allowUnauthorizedCerts: true });
		await searchConsignments.call(context);
		expect(sentWith).toEqual([
			{ timeout: 1234, proxy: { host: 'proxy.example.com', port: 3128, protocol: 'http' }, skipSslCertificateValidation: true },
		]);
	});

	it('consignments: every consignment, id as the value, status and item count in the name', async () => {
		const context = await loadOptionsContext(sandbox());
		await sandbox().admin.clearRequests();
		const { results, paginationToken } = await searchConsignments.call(context);
		expect(results.map((r) => r.value)).toEqual(['cons_12345', '1001', 'cons_67890']);
		expect(results[0].name).toMatch(/^cons_12345 \(created, \d+ items, \d{4}-\d{2}-\d{2}\)$/);
		expect(paginationToken).toBeUndefined();
		expect((await apiRequests()).map((r) => [r.path, r.query])).toEqual([['/v1/consignments', { page_size: '20' }]]);
	});

	it('consignments: the search text filters by id or description', async () => {
		const context = await loadOptionsContext(sandbox());
		expect((await searchConsignments.call(context, 'CONS_')).results.map((r) => r.value)).toEqual(['cons_12345', 'cons_67890']);
		expect((await searchConsignments.call(context, 'received')).results.map((r) => r.value)).toEqual(['cons_67890']);
	});

	it('addresses: only active ones, address_id as the value, name and place in the label', async () => {
		const context = await loadOptionsContext(sandbox());
		const { results } = await searchActiveAddresses.call(context);
		expect(results.map((r) => r.value)).toEqual(['301', '302', '304']);
		expect(results[0].name).toBe('Ada Lovelace — 12 W 31st St, New York, NY, 10001');
		expect((await searchActiveAddresses.call(context, 'chicago')).results.map((r) => r.value)).toEqual(['304']);
	});

	it('addresses over several pages: a pagination token, and the next call continues where the last stopped', async () => {
		const sb = sandbox();
		const exchange = await fetch(`${sb.authUrl}/api/v1/bearer-token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ client_id: sb.clientId, client_secret: sb.clientSecret }),
		});
		const { bearer_token: bearer } = (await exchange.json()) as { bearer_token: string };
		for (let n = 0; n < 60; n++) {
			await fetch(`${sb.baseUrl}/v1/vendor/addresses`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
				body: JSON.stringify(validAddress({ last_name: `N${n}`, address1: `${n} Elm St` })),
			});
		}
		const context = await loadOptionsContext(sb);
		// 64 addresses, 63 active: the first call reads pages until it has a screenful (20+), then hands back a cursor.
		const first = await searchActiveAddresses.call(context);
		expect(first.results.length).toBeGreaterThanOrEqual(20);
		expect(typeof first.paginationToken).toBe('string');
		const all = first.results.map((r) => r.value);
		let token = first.paginationToken as string | undefined;
		let calls = 1;
		while (token !== undefined && calls < 10) {
			const next = await searchActiveAddresses.call(context, undefined, token);
			all.push(...next.results.map((r) => r.value));
			token = next.paginationToken as string | undefined;
			calls++;
		}
		expect(token).toBeUndefined();
		expect(all).toHaveLength(63);
		expect(new Set(all).size).toBe(63);
		expect(all).not.toContain('303');
	});
});
