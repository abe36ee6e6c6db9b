// Ambiguous writes on n8n 1.x's error shape: every NodeApiError loses the axios error it wraps, so only
// `httpCode: 'ECONNRESET'` / `'ECONNABORTED'` and n8n's reworded message say what happened. See ambiguous-writes.cases.ts.
import { NodeApiError } from 'n8n-workflow';

import { ambiguousWriteCases } from './ambiguous-writes.cases';
import type { V1NodeApiErrorClass } from './n8n1-error-shape';

jest.mock('n8n-workflow', () => (jest.requireActual('./n8n1-error-shape') as typeof import('./n8n1-error-shape')).n8nWorkflowWithV1Errors());

let droppedBefore = 0;
beforeEach(() => {
	droppedBefore = (NodeApiError as unknown as V1NodeApiErrorClass).causesDropped;
});

// Each test met n8n 1.x's shape: n8n-core wrapped the request's error in a NodeApiError that dropped it.
ambiguousWriteCases(() => {
	expect((NodeApiError as unknown as V1NodeApiErrorClass).causesDropped).toBeGreaterThan(droppedBefore);
});
