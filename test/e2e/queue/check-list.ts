import { QUEUE_CHECKS, type QueueCheck } from './checks';
import { itemTriggerMainKilledCheck } from './item-trigger-main-killed';
import { V3_DEFAULT_CHECKS } from './v3-defaults';

/**
 * Every queue-mode check, in the order run.ts runs them on one cluster. A new file of checks (a `QueueCheck[]`
 * taking a `QueueContext`) is added here with one line.
 */
export const ALL_QUEUE_CHECKS: QueueCheck[] = [
	...QUEUE_CHECKS,
	// The main killed mid-poll (issue 26.6), opt-in: it takes about 4 minutes, and it needs the trigger workflow's
	// memory to be its own activation's, which the earlier item trigger check of a full run is not. Run it alone:
	// E2E_QUEUE_MAIN_KILLED=1 E2E_ONLY="main killed" npm run test:e2e:queue
	...(process.env.E2E_QUEUE_MAIN_KILLED === '1' ? [itemTriggerMainKilledCheck] : []),
	...V3_DEFAULT_CHECKS,
];
