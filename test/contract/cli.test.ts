import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

// `npm run sandbox` is `ts-node --transpile-only test/sandbox/cli.ts`; this runs the same thing through node.
describe('sandbox CLI', () => {
	it('prints exactly one JSON line with baseUrl, authUrl, clientId, clientSecret, serves the API, and exits on SIGTERM', async () => {
		const root = resolve(__dirname, '../..');
		// A test of a dev tool, not node code: the community-node ban on child processes does not apply here.
		const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/sandbox/cli.ts'], {
			cwd: root,
			env: { ...process.env, SANDBOX_PORT: '0' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
		child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
		try {
			const deadline = Date.now() + 20000;
			while (!stdout.includes('\n')) {
				if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no line from the CLI; stderr: ${stderr}`);
				await new Promise((r) => setTimeout(r, 50));
			}
			const info = JSON.parse(stdout.trim());
			expect(Object.keys(info).sort()).toEqual(['authUrl', 'baseUrl', 'clientId', 'clientSecret']);
			expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(info.authUrl).toBe(`${info.baseUrl}/auth`);
			const token = await fetch(`${info.authUrl}/api/v1/bearer-token`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
				body: JSON.stringify({ client_id: info.clientId, client_secret: info.clientSecret }),
			}).then((r) => r.json() as Promise<{ bearer_token: string }>);
			const vendor = await fetch(`${info.baseUrl}/v1/vendor`, { headers: { Authorization: `Bearer ${token.bearer_token}` } });
			expect(vendor.status).toBe(200);
			expect(await vendor.json()).toHaveProperty('preferences');
		} finally {
			const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve([child.exitCode]);
			child.kill('SIGTERM');
			const [code] = await exited;
			expect(code).toBe(0);
		}
		expect(stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
	});
});
