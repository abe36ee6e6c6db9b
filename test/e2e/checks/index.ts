import { ambiguousWriteChecks } from './ambiguous-writes';
import { credentialChecks } from './credential';
import { exampleChecks } from './examples';
import { itemMappingChecks } from './item-mapping';
import { itemTriggerChecks } from './item-trigger';
import { itemChecks } from './items';
import { listingDelayChecks } from './listing-delay';
import { mirrorChecks } from './mirror';
import { listToFileChecks } from './list-to-file';
import { pagingRefusalChecks } from './paging-refusals';
import { addressChecks, otherResourceChecks } from './resources';
import { rateLimitChecks } from './rate-limit';
import { retryChecks } from './retry';
import { scaleChecks } from './scale';
import { simplifyChecks } from './simplify';
import { triggerChecks } from './trigger';
import { triggerListeningChecks } from './trigger-listening';
import { triggerOptionChecks } from './trigger-options';
import type { Check } from './types';

/**
 * Every check, in the order they run. CLI checks run first (one `n8n execute` each), then server checks in
 * one `n8n start`. To add a workflow: drop its JSON into test/e2e/workflows/ and add a check that executes
 * it by file name (see test/e2e/README.md).
 */
export const ALL_CHECKS: Check[] = [
	...credentialChecks,
	...itemChecks,
	...itemMappingChecks,
	...mirrorChecks,
	...simplifyChecks,
	...retryChecks,
	...pagingRefusalChecks,
	...rateLimitChecks,
	...addressChecks,
	...ambiguousWriteChecks,
	...otherResourceChecks,
	...triggerChecks,
	...triggerOptionChecks,
	...triggerListeningChecks,
	...itemTriggerChecks,
	...exampleChecks,
	...scaleChecks,
	...listingDelayChecks,
	...listToFileChecks,
];
