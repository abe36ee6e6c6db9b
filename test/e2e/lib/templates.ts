import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

import type { ApiTarget } from '../target';

export const E2E_DIR = resolve(__dirname, '..');
export const WORKFLOWS_DIR = join(E2E_DIR, 'workflows');
/** The README's example workflows; the suite runs them too, under the name `example-<file>`. */
export const EXAMPLES_DIR = join(E2E_DIR, '..', '..', 'examples');
export const EXAMPLE_PREFIX = 'example-';
export const CREDENTIALS_FILE = join(E2E_DIR, 'credentials.json');

/** Ids the workflows use to reference the imported credentials. */
export const CREDENTIAL_IDS = { good: 'e2eVendorCred001', wrongSecret: 'e2eVendorBadCred' } as const;
/** The wrong secret of the second credential: it must never show up in anything n8n prints. */
export const WRONG_SECRET_CANARY = 'wrong-secret-canary-7f3a9c';
/** Signing secret the sandbox and the credential share in the suite (empty for an external target unless given). */
export const SANDBOX_SIGNING_SECRET = 'e2e-webhook-signing-secret';

/** `%%NAME%%` placeholders: n8n's own `{{ }}` expressions in workflows must stay untouched. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
	return text.replace(/%%([A-Z0-9_]+)%%/g, (whole, name: string) => {
		if (!(name in values)) throw new Error(`unknown placeholder ${whole}`);
		// JSON-escape: values land inside JSON strings
		return JSON.stringify(values[name]).slice(1, -1);
	});
}

export function targetPlaceholders(target: ApiTarget, extra: Record<string, string> = {}): Record<string, string> {
	return {
		E2E_BASE_URL: target.baseUrl,
		E2E_AUTH_URL: target.authUrl,
		E2E_CLIENT_ID: target.clientId,
		E2E_CLIENT_SECRET: target.clientSecret,
		E2E_WEBHOOK_SIGNING_SECRET: target.sandboxUrl ? SANDBOX_SIGNING_SECRET : (process.env.E2E_WEBHOOK_SIGNING_SECRET ?? ''),
		...extra,
	};
}

/**
 * A stable workflow id from a file name (n8n 2.x accepts ids of at most 21 characters, 1.x of 16), so a workflow file
 * needs no id of its own and checks refer to workflows by file name.
 */
export function workflowIdFor(name: string): string {
	// at most 16 characters: `n8n execute` in 1.x ignores longer ids (isWorkflowIdValid)
	return `e2e${createHash('sha1').update(name).digest('hex').slice(0, 13)}`;
}

export function workflowNames(dir = WORKFLOWS_DIR): string[] {
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => basename(f, '.json'))
		.sort();
}

export interface WorkflowSource {
	dir: string;
	/** Prepended to each file name to make the workflow's name (and id). */
	prefix: string;
}

/** The suite's workflows and, when present, the examples. */
export function suiteSources(): WorkflowSource[] {
	return [{ dir: WORKFLOWS_DIR, prefix: '' }, ...exampleSources()];
}

export function exampleSources(): WorkflowSource[] {
	return existsSync(EXAMPLES_DIR) ? [{ dir: EXAMPLES_DIR, prefix: EXAMPLE_PREFIX }] : [];
}

/**
 * Writes the credential file and every workflow of `sources`, placeholders filled and ids assigned, into
 * `outDir` for n8n's import commands. Returns workflow name -> id.
 *
 * Consignment Vendor credential references that name none of the imported credentials (an example's
 * placeholder) are pointed at the default credential: the first one, or `defaultCredential`, which then
 * replaces the file's credentials with the first one under that id and name (`npm run dev`).
 */
export function instantiate(
	target: ApiTarget,
	outDir: string,
	options: {
		sources?: WorkflowSource[];
		placeholders?: Record<string, string>;
		defaultCredential?: CredentialRef;
		/** Imported after the file's credentials (a run variant's own); workflows may reference them by id. */
		extraCredentials?: StoredCredential[];
	} = {},
): { credentialsFile: string; workflowsDir: string; ids: Record<string, string> } {
	const values = targetPlaceholders(target, options.placeholders);
	const workflowsDir = join(outDir, 'workflows');
	rmSync(outDir, { recursive: true, force: true });
	mkdirSync(workflowsDir, { recursive: true });
	let credentials = JSON.parse(fillPlaceholders(readFileSync(CREDENTIALS_FILE, 'utf8'), values)) as StoredCredential[];
	if (options.defaultCredential) credentials = [{ ...credentials[0], ...options.defaultCredential }];
	credentials = [...credentials, ...(options.extraCredentials ?? [])];
	const credentialsFile = join(outDir, 'credentials.json');
	writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2));

	const ids: Record<string, string> = {};
	for (const source of options.sources ?? suiteSources()) {
		for (const file of workflowNames(source.dir)) {
			const name = `${source.prefix}${file}`;
			const workflow = JSON.parse(fillPlaceholders(readFileSync(join(source.dir, `${file}.json`), 'utf8'), values)) as Record<string, unknown>;
			workflow.id = workflowIdFor(name);
			workflow.name ??= name;
			// n8n's Postgres schema (queue mode) stores a workflow name in varchar(128); SQLite would accept more.
			if (String(workflow.name).length > 128) throw new Error(`${file}.json: its name is longer than the 128 characters n8n stores on Postgres`);
			workflow.active = false;
			pointCredentials(workflow, credentials);
			ids[name] = workflow.id as string;
			writeFileSync(join(workflowsDir, `${name}.json`), JSON.stringify(workflow, null, 2));
		}
	}
	return { credentialsFile, workflowsDir, ids };
}

export interface CredentialRef {
	id: string;
	name: string;
}

/** A credential as n8n's `import:credentials` takes it (`data` in plain text). */
export interface StoredCredential extends CredentialRef {
	type: string;
	data: Record<string, string>;
}

function pointCredentials(workflow: Record<string, unknown>, credentials: CredentialRef[]): void {
	for (const node of (workflow.nodes as Array<{ credentials?: Record<string, CredentialRef> }>) ?? []) {
		const ref = node.credentials?.consignmentVendorApi;
		if (!ref) continue;
		const match = credentials.find((c) => c.id === ref.id) ?? credentials[0];
		node.credentials!.consignmentVendorApi = { id: match.id, name: match.name };
	}
}
