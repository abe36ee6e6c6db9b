import { exampleRunCheck } from './example-run';
import { itemTriggerEventCheck } from './item-trigger-event';
import { newNodePanelCheck } from './new-node-panel';
import { nodeListCheck } from './node-list';
import { triggerListeningCheck } from './trigger-listening';
import type { UiCheck } from './types';

/** In the order a new user meets them. */
export const UI_CHECKS: UiCheck[] = [nodeListCheck, newNodePanelCheck, exampleRunCheck, triggerListeningCheck, itemTriggerEventCheck];
