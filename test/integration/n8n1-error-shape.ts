// Runs the harness (n8n-core 2.x) with n8n 1.x's request errors: in n8n 1.x, `new NodeApiError(node, error)` keeps
// only httpCode, message, messages and description of the error it wraps, because a `cause` class field of
// ExecutionBaseError resets what `Error` stored. A test file switches to it with
//
//   jest.mock('n8n-workflow', () => jest.requireActual('./n8n1-error-shape').n8nWorkflowWithV1Errors());
//
// n8n-core, RoutingNode and this package then all build NodeApiErrors of this class, as they would in n8n 1.x.
import type * as N8nWorkflow from 'n8n-workflow';

/** Reads how many wrapped errors the class dropped, so a test can check that the 1.x shape was really in play. */
export interface V1NodeApiErrorClass {
	causesDropped: number;
}

export function n8nWorkflowWithV1Errors(): typeof N8nWorkflow {
	const actual = jest.requireActual<typeof N8nWorkflow>('n8n-workflow');
	class NodeApiError extends actual.NodeApiError {
		static causesDropped = 0;

		constructor(...args: ConstructorParameters<typeof actual.NodeApiError>) {
			super(...args);
			const wrapped: unknown = args[1];
			// NodeApiError hands back an error that already is one; only a new wrapper loses what it wraps.
			if (wrapped !== this && wrapped instanceof Error) {
				Object.defineProperty(this, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
				NodeApiError.causesDropped++;
			}
		}
	}
	return { ...actual, NodeApiError };
}
