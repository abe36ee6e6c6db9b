import { startSandbox } from '../../sandbox';
import { installHistoryClock, World } from '../world';
import type { RunSpec } from '../steps';

const base = (over: Partial<RunSpec>): RunSpec => ({ workflow: 0, operation: 'upsert', node: 0, items: [], streets: [], orders: [], onlySendWhatChanged: 'off', mirror: false, continueOnFail: true, manual: false, faults: [], crash: false, ...over });

async function main() {
	installHistoryClock();
	const sandbox = await startSandbox({ port: 0, seed: false });
	const world = new World(sandbox);
	for (let attempt = 0; attempt < 40; attempt++) {
		await world.reset({ listingDelaySeconds: 90, numericSkusAsNumbers: true, onlySendWhatChanged: 'off' });
		const rows = [{ sku: 3, form: 'text' as const, version: 0, refused: false }, { sku: 0, form: 'text' as const, version: 0, refused: false }];
		const x = base({ items: rows, faults: [{ kind: 'lostAnswer', skip: 0 }, { kind: 'dropWrite', skip: 1 }] });
		const y = base({ items: rows });
		const records = await world.runGroup([x, y], attempt % 4 === 0 ? 0 : 10 * (attempt % 4), 40);
		const state = await world.state();
		const bag = state.items.filter((i) => String(i.vendor_sku).toLowerCase() === 'bag-101');
		if (bag.length > 1 || process.env.SHOW) {
			console.log(`attempt ${attempt}: ${bag.length} items`);
			console.log(records[0].requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.fault ?? ''} ${JSON.stringify(r.body ?? '').slice(0, 100)}`).join('\n'));
			console.log(JSON.stringify(records.map((r) => r.outputs.map((o) => JSON.stringify(o).slice(0, 250))), null, 1));
			if (bag.length > 1) break;
		}
	}
	await sandbox.close();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
