// The bench's scenarios, in the order they run (the rate-limited ones first, the CPU-bound comparison
// last). Add a scenario: one file here exporting a `Scenario` (../scenario.ts), listed below.
import type { Scenario } from '../scenario';
import { createScenario } from './create';
import { mirrorScenario } from './mirror';
import { noLimitBefore, noLimitNow } from './no-limit';
import { outageScenarios } from './outage';
import { returnAllScenario } from './return-all';
import { returnAll100kMax20Scenario, returnAll100kScenario, upsertAgainstManyScenario } from './scale';
import { updateScenarios } from './update';
import { sharedQuotaScenarios } from './shared-quota';
import { upsertScenario } from './upsert';
import { rerunSyncScenarios } from './rerun-sync';
import { quietDefaultsScenarios } from './quiet-defaults';

export const SCENARIOS: Scenario[] = [
	returnAllScenario,
	createScenario,
	upsertScenario,
	...rerunSyncScenarios,
	...quietDefaultsScenarios,
	...updateScenarios,
	...outageScenarios,
	noLimitBefore,
	noLimitNow,
	returnAll100kScenario,
	returnAll100kMax20Scenario,
	upsertAgainstManyScenario,
	mirrorScenario,
	...sharedQuotaScenarios,
];
