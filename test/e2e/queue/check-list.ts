import { QUEUE_CHECKS, type QueueCheck } from './checks';
import { itemTriggerMainKilledCheck } from './item-trigger-main-killed';
import { V3_DEFAULT_CHECKS } from './v3-defaults';

/**
 * Every queue-mode check, in the order run.ts runs them on one cluster. A new file of checks (a `QueueCheck[]`
 * taking a `QueueContext`) is added here with one line.
 */
export const ALL_QUEUE_CHECKS: QueueCheck[] = [...QUEUE_CHECKS, itemTriggerMainKilledCheck, ...V3_DEFAULT_CHECKS];
