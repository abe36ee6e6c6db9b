// What the paginator remembers to skip after an expired cursor (shared/returnedIdentities.ts): the same identity
// however the service wrote the id, two id fields never confused, nothing skipped before a restart.
import { ReturnedIdentities } from '../../nodes/shared/pagination/returnedIdentities';

describe('returned identities', () => {
	it('skips, after a restart, what earlier attempts returned: 7 and "7" are one id, "007" and 7.5 are their own', () => {
		const returned = new ReturnedIdentities();
		returned.note('id', 7);
		returned.note('id', 'abc');
		returned.note('id', 7.5);
		expect(returned.restarted).toBe(false);
		expect(returned.has('id', 7)).toBe(false);
		returned.restart();
		expect(returned.restarted).toBe(true);
		expect([returned.has('id', '7'), returned.has('id', 7), returned.has('id', 'abc'), returned.has('id', 7.5)]).toEqual([true, true, true, true]);
		expect([returned.has('id', '007'), returned.has('id', 8), returned.has('id', '7.5x')]).toEqual([false, false, false]);
	});

	it('an item id and a variant id of the same number are not confused; a later attempt joins at the next restart', () => {
		const returned = new ReturnedIdentities();
		returned.note('item_id', 50001);
		returned.restart();
		expect(returned.has('id', 50001)).toBe(false);
		returned.note('id', 900001);
		expect(returned.has('id', 900001)).toBe(false);
		returned.restart();
		expect([returned.has('id', 900001), returned.has('item_id', 50001)]).toEqual([true, true]);
	});
});
