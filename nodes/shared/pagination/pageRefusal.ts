/**
 * Decided from what is known, never from the answer's wording: the contract says cursors "may expire" and leaves
 * the maximum page_size "not shown", but shows no form for either refusal. What is known: which request failed,
 * whether a page of the same listing succeeded before it, and whether the node chose the page size.
 */
type PageRefusalAction = 'restartListing' | 'askRecommendedSize' | 'fail';

export interface RefusedPage {
	status: number | undefined;
	/** The request carried `after`: a page of this listing succeeded before it (that is where the cursor came from). */
	carriedCursor: boolean;
	firstPage: boolean;
	/** The page size asked for is the node's own choice and larger than the recommended one. */
	nodeChoseLargePageSize: boolean;
}

/**
 * 4xx answers that say nothing about the request's cursor or page size, whatever page they come on:
 * - 401 / 407: the credential (or proxy) was refused; the transport already exchanged the token and sent again.
 * - 403: the client may not read the listing at all; the first page would be refused the same way.
 * - 429: the service wants fewer requests; the transport's queue already waited and sent again, and re-reading
 *   the listing from its start would only add requests.
 * Every other 4xx is the service refusing this request's parameters, and the only parameters that change from one
 * page to the next are the cursor and (on the first page) the size the node chose.
 */
const NOT_ABOUT_THE_PAGE = new Set([401, 403, 407, 429]);

function refusesThePage(status: number | undefined): boolean {
	return status !== undefined && status >= 400 && status < 500 && !NOT_ABOUT_THE_PAGE.has(status);
}

export function pageRefusalAction(page: RefusedPage): PageRefusalAction {
	if (!refusesThePage(page.status)) return 'fail';
	// The same filters were accepted with an earlier cursor or on the first page: the cursor is what changed.
	if (page.carriedCursor) return 'restartListing';
	// A user's page size is sent as it is (they chose it); the node's own 100 is an undocumented guess.
	if (page.firstPage && page.nodeChoseLargePageSize) return 'askRecommendedSize';
	return 'fail';
}
