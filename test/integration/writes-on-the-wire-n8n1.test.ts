// Writes on the wire when a row is refused, on n8n 1.x's error shape: every NodeApiError loses the axios error it
// wraps, so only httpCode and n8n's message say what happened. See writes-on-the-wire.cases.ts.
import { NodeApiError } from 'n8n-workflow';

import type { V1NodeApiErrorClass } from './n8n1-error-shape';
import { writesOnTheWireCases } from './writes-on-the-wire.cases';

jest.mock('n8n-workflow', () => (jest.requireActual('./n8n1-error-shape') as typeof import('./n8n1-error-shape')).n8nWorkflowWithV1Errors());

let droppedBefore = 0;
beforeEach(() => {
	droppedBefore = (NodeApiError as unknown as V1NodeApiErrorClass).causesDropped;
});

// Each test met n8n 1.x's shape: n8n-core wrapped a request's error in a NodeApiError that dropped it.
writesOnTheWireCases(() => {
	expect((NodeApiError as unknown as V1NodeApiErrorClass).causesDropped).toBeGreaterThan(droppedBefore);
});
