// Public API of the in-process harness; see README.md beside this file.
export { buildNode, buildWorkflow, ITEMS_NODE_NAME, TRIGGER_NODE_NAME } from './builders';
export type { NodeSettings, NodeSpec } from './builders';
export { CredentialStore, SANDBOX_CREDENTIAL_ID, sandboxCredential } from './credential-store';
export type { ConsignmentVendorCredentialData, HarnessCredential } from './credential-store';
export { packageNodeType, PACKAGE_NAME } from './node-types';
export { runWorkflow } from './run-workflow';
export type { HarnessWorkflow, RunOptions, RunResult } from './run-workflow';
export { ITEMS_SOURCE_TYPE, MANUAL_TRIGGER_TYPE } from './test-nodes';
export { forgetSharedAccessTokens } from '../../credentials/sharedAccessToken';
export { forgetSchedulers } from '../../nodes/shared/transport';
export { testCredential } from './credential-test';
export { useFilesystemBinaryData } from './binary-storage';
