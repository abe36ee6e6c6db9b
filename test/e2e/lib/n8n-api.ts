/**
 * The HTTP side of a running n8n: the owner account and an API key (the "without the UI" path), workflow
 * activation through the public API, executions, and the credential test. Works with 1.x and 2.x, which
 * name activation differently (`/activate` in 1.x; `/publish` in 2.x, where `/activate` is deprecated).
 */
import { sendWhileDatabaseNotReady } from './database-not-ready';

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** Binary data of an execution item: base64 `data` in n8n's default mode (1.x), an `id` in filesystem mode (2.x). */
export interface ExecutionBinary {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileSize?: string;
}

export interface ExecutionItem {
	json: Record<string, unknown>;
	binary?: Record<string, ExecutionBinary>;
}

export interface Execution {
	id: string;
	workflowId: string;
	status?: string;
	finished?: boolean;
	mode?: string;
	startedAt?: string;
	data?: { resultData?: { runData?: Record<string, Array<{ data?: { main?: Array<Array<ExecutionItem>> } }>> } };
}

export class N8nApi {
	private cookie = '';
	private apiKey = '';

	constructor(readonly url: string) {}

	/** Creates the instance owner on a fresh n8n (returns false if one exists), then logs in. */
	async setupOwnerOrLogin(owner: OwnerAccount): Promise<'created' | 'existing'> {
		const setup = await this.rest('POST', '/rest/owner/setup', owner, false);
		if (setup.status === 200) {
			this.takeCookie(setup.res);
			return 'created';
		}
		await this.login(owner);
		return 'existing';
	}

	async login(owner: OwnerAccount): Promise<void> {
		const login = await this.rest('POST', '/rest/login', { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password }, false);
		if (login.status !== 200) throw new Error(`n8n login as ${owner.email} answered ${login.status}: ${login.text.slice(0, 300)}`);
		this.takeCookie(login.res);
	}

	/** An API key with every scope the owner may grant (the scope list differs between versions). */
	async createApiKey(label: string): Promise<string> {
		const scopes = await this.rest('GET', '/rest/api-keys/scopes');
		const scopeList = scopes.status === 200 ? (unwrap(scopes.json) as string[]) : undefined;
		const body: Record<string, unknown> = { label, expiresAt: null };
		if (scopeList) body.scopes = scopeList;
		const created = await this.rest('POST', '/rest/api-keys', body);
		if (created.status !== 200) throw new Error(`creating an API key answered ${created.status}: ${created.text.slice(0, 300)}`);
		this.apiKey = (unwrap(created.json) as { rawApiKey: string }).rawApiKey;
		return this.apiKey;
	}

	useApiKey(key: string): void {
		this.apiKey = key;
	}

	/** Activates (1.x) / publishes (2.x) a workflow through the public API. */
	async activate(workflowId: string): Promise<void> {
		await this.publicPostFirstFound(workflowId, ['publish', 'activate']);
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.publicPostFirstFound(workflowId, ['unpublish', 'deactivate']);
	}

	async workflow(workflowId: string): Promise<{ id: string; active: boolean; activeVersionId?: string | null }> {
		const res = await this.publicApi('GET', `/workflows/${workflowId}`);
		if (res.status !== 200) throw new Error(`GET workflow ${workflowId} answered ${res.status}: ${res.text.slice(0, 300)}`);
		return res.json as { id: string; active: boolean };
	}

	/**
	 * "Listen for test event" on a trigger, as the editor's button does: POST /rest/workflows/{id}/run with the stored
	 * workflow and `triggerToStartFrom` (2.x reads the workflow from its database and ignores `workflowData`; 1.x
	 * needs it). `waitingForWebhook` true = n8n registered the test webhook; otherwise `message` is n8n's error.
	 */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<{ status: number; waitingForWebhook: boolean; message: string }> {
		const stored = await this.rest('GET', `/rest/workflows/${workflowId}`);
		if (stored.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} answered ${stored.status}: ${stored.text.slice(0, 300)}`);
		const res = await this.rest('POST', `/rest/workflows/${workflowId}/run`, {
			workflowData: unwrap(stored.json),
			triggerToStartFrom: { name: triggerName },
		});
		const data = unwrap(res.json) as { waitingForWebhook?: boolean; message?: string } | undefined;
		const message = typeof data?.message === 'string' ? data.message : res.text.slice(0, 500);
		return { status: res.status, waitingForWebhook: res.status === 200 && data?.waitingForWebhook === true, message };
	}

	/** Stops test listening (the editor's "stop listening"): DELETE /rest/test-webhook/{id}, 1.x and 2.x. */
	async stopListening(workflowId: string): Promise<void> {
		const res = await this.rest('DELETE', `/rest/test-webhook/${workflowId}`);
		if (res.status !== 200) throw new Error(`DELETE /rest/test-webhook/${workflowId} answered ${res.status}: ${res.text.slice(0, 300)}`);
	}

	/** Executions of a workflow, newest first, with their run data. */
	async executions(workflowId: string): Promise<Execution[]> {
		const res = await this.publicApi('GET', `/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true&limit=100`);
		if (res.status !== 200) throw new Error(`GET executions answered ${res.status}: ${res.text.slice(0, 300)}`);
		return (res.json as { data: Execution[] }).data;
	}

	/**
	 * The bytes of stored binary data (filesystem mode: the `id` of an execution item's binary), through the REST
	 * route the editor's download button uses.
	 */
	async binaryData(id: string): Promise<Buffer> {
		if (!this.cookie) throw new Error('not logged in');
		const res = await fetch(`${this.url}/rest/binary-data?id=${encodeURIComponent(id)}&action=download`, {
			headers: { cookie: this.cookie, 'browser-id': 'e2e-suite' },
		});
		const bytes = Buffer.from(await res.arrayBuffer());
		if (res.status !== 200) throw new Error(`GET /rest/binary-data?id=${id} answered ${res.status}: ${bytes.toString('utf8').slice(0, 200)}`);
		return bytes;
	}

	/** n8n's own credential test (the "Test" button of the credential dialog), for a stored credential. */
	async testCredential(credential: { id: string; name: string; type: string; data: Record<string, unknown> }): Promise<{ status: string; message: string }> {
		const res = await this.rest('POST', '/rest/credentials/test', { credentials: credential });
		if (res.status !== 200) throw new Error(`POST /rest/credentials/test answered ${res.status}: ${res.text.slice(0, 300)}`);
		return unwrap(res.json) as { status: string; message: string };
	}

	/**
	 * The fields the editor's column mapper (`resourceMapper` parameter) shows, as the editor asks for them: the node's
	 * `methods.resourceMapping[methodName]` run by the server with the node's current parameters.
	 */
	async resourceMapperFields(request: {
		nodeType: string;
		version: number;
		methodName: string;
		path: string;
		parameters: Record<string, unknown>;
	}): Promise<{ fields: Array<Record<string, unknown>> }> {
		const res = await this.rest('POST', '/rest/dynamic-node-parameters/resource-mapper-fields', {
			path: request.path,
			nodeTypeAndVersion: { name: request.nodeType, version: request.version },
			currentNodeParameters: request.parameters,
			methodName: request.methodName,
		});
		if (res.status !== 200) throw new Error(`POST /rest/dynamic-node-parameters/resource-mapper-fields answered ${res.status}: ${res.text.slice(0, 300)}`);
		return unwrap(res.json) as { fields: Array<Record<string, unknown>> };
	}

	/**
	 * What a "From list" field (resource locator) shows, as the editor asks for it: the node's
	 * `methods.listSearch[methodName]` run by the server with the node's parameters and credential.
	 */
	async listSearch(request: {
		nodeType: string;
		version: number;
		methodName: string;
		path: string;
		parameters: Record<string, unknown>;
		credentials: Record<string, { id: string; name: string }>;
		filter?: string;
	}): Promise<{ results: Array<{ name: string; value: string | number }>; paginationToken?: unknown }> {
		const res = await this.rest('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
			path: request.path,
			nodeTypeAndVersion: { name: request.nodeType, version: request.version },
			currentNodeParameters: request.parameters,
			methodName: request.methodName,
			credentials: request.credentials,
			filter: request.filter,
		});
		if (res.status !== 200) throw new Error(`POST /rest/dynamic-node-parameters/resource-locator-results answered ${res.status}: ${res.text.slice(0, 300)}`);
		return unwrap(res.json) as { results: Array<{ name: string; value: string | number }>; paginationToken?: unknown };
	}

	/** Installs a community package the way the nodes panel does (`POST /rest/community-packages`); n8n's answer as is. */
	async installCommunityPackage(name: string): Promise<{ status: number; message: string }> {
		const res = await this.rest('POST', '/rest/community-packages', { name });
		const message = (res.json as { message?: string } | undefined)?.message ?? res.text.slice(0, 300);
		return { status: res.status, message };
	}

	/** Node or credential type names the server loaded (what the editor can offer). */
	async typeNames(kind: 'nodes' | 'credentials'): Promise<string[]> {
		const res = await this.rest('GET', `/types/${kind}.json`);
		if (res.status !== 200) throw new Error(`GET /types/${kind}.json answered ${res.status}`);
		return (res.json as Array<{ name: string }>).map((t) => t.name);
	}

	private async publicPostFirstFound(workflowId: string, actions: string[]): Promise<void> {
		const answers: string[] = [];
		for (const action of actions) {
			const res = await this.publicApi('POST', `/workflows/${workflowId}/${action}`, {});
			if (res.status === 200) return;
			answers.push(`/${action} ${res.status} ${res.text.slice(0, 200)}`);
			// A version without this route answers 404, or 405 where the path matches another route
			// (1.x: GET /workflows/{id}/{versionId}): try the other name. Anything else is a real failure.
			if (res.status !== 404 && res.status !== 405) break;
		}
		throw new Error(`${actions[0]} of workflow ${workflowId} failed: ${answers.join('; ')}`);
	}

	private async publicApi(method: string, path: string, body?: unknown) {
		if (!this.apiKey) throw new Error('no API key: call createApiKey first');
		return this.call(method, `/api/v1${path}`, body, { 'X-N8N-API-KEY': this.apiKey });
	}

	private async rest(method: string, path: string, body?: unknown, needsLogin = true) {
		if (needsLogin && !this.cookie) throw new Error('not logged in');
		return this.call(method, path, body, this.cookie ? { cookie: this.cookie } : {});
	}

	/** One request, sent again while n8n answers that its database is not ready (it was not handled). */
	private async call(method: string, path: string, body: unknown, headers: Record<string, string>) {
		return sendWhileDatabaseNotReady(() => this.callOnce(method, path, body, headers));
	}

	private async callOnce(method: string, path: string, body: unknown, headers: Record<string, string>) {
		const res = await fetch(`${this.url}${path}`, {
			method,
			headers: {
				...headers,
				'browser-id': 'e2e-suite',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let json: unknown;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		return { res, status: res.status, text, json };
	}

	private takeCookie(res: Response): void {
		const auth = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error('n8n set no n8n-auth cookie');
		this.cookie = auth.split(';')[0];
	}
}

/** n8n's internal REST API wraps responses as `{data: ...}`. */
function unwrap(json: unknown): unknown {
	return json && typeof json === 'object' && 'data' in json ? (json as { data: unknown }).data : json;
}
