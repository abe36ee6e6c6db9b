// What the paginator does with a refused page request, decided from which request it was (pageRefusal.ts): the
// answer's wording never enters, so the inputs here are only the status and what the paginator knows.
import { pageRefusalAction, type RefusedPage } from '../../nodes/shared/pagination/pageRefusal';

const firstPageOf100: RefusedPage = { status: 400, carriedCursor: false, firstPage: true, nodeChoseLargePageSize: true };
const laterPage: RefusedPage = { status: 400, carriedCursor: true, firstPage: false, nodeChoseLargePageSize: true };

describe('pageRefusalAction', () => {
	it.each([400, 404, 408, 409, 410, 413, 422])('a %i to a page with a cursor: the cursor expired, restart the listing', (status) => {
		expect(pageRefusalAction({ ...laterPage, status })).toBe('restartListing');
		expect(pageRefusalAction({ ...laterPage, status, nodeChoseLargePageSize: false })).toBe('restartListing');
	});

	it.each([400, 404, 410, 413, 422])('a %i to the first page while asking for the node\'s own 100: ask for 20', (status) => {
		expect(pageRefusalAction({ ...firstPageOf100, status })).toBe('askRecommendedSize');
	});

	it('a refused first page is the error when the user set the size, when 20 was asked already, or when a page was served before', () => {
		expect(pageRefusalAction({ ...firstPageOf100, nodeChoseLargePageSize: false })).toBe('fail');
		expect(pageRefusalAction({ ...firstPageOf100, firstPage: false })).toBe('fail');
	});

	it.each([401, 403, 407, 429])('a %i says nothing about the page: the error, on any page', (status) => {
		expect(pageRefusalAction({ ...laterPage, status })).toBe('fail');
		expect(pageRefusalAction({ ...firstPageOf100, status })).toBe('fail');
	});

	it.each([undefined, 500, 502, 503, 302])('%s (no answer, or not a 4xx): the error', (status) => {
		expect(pageRefusalAction({ ...laterPage, status })).toBe('fail');
		expect(pageRefusalAction({ ...firstPageOf100, status })).toBe('fail');
	});
});
