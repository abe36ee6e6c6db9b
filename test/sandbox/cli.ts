// `npm run sandbox`: a seeded sandbox on 127.0.0.1:$SANDBOX_PORT (default 4010; 0 = any free port; SANDBOX_HOST and
// SANDBOX_PUBLIC_URL for a container, see docs/docker-compose.yml). Prints exactly
// one JSON line to stdout, {baseUrl, authUrl, clientId, clientSecret}, then runs until SIGINT/SIGTERM.
import { startSandbox } from './index';

async function main(): Promise<void> {
	const rawPort = process.env.SANDBOX_PORT ?? '4010';
	const port = Number(rawPort);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number, got "${rawPort}"`);
	const sb = await startSandbox({ port, host: process.env.SANDBOX_HOST ?? '127.0.0.1', publicUrl: process.env.SANDBOX_PUBLIC_URL });
	process.stdout.write(
		`${JSON.stringify({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: sb.clientId, clientSecret: sb.clientSecret })}\n`,
	);
	let closing = false;
	const shutdown = () => {
		if (closing) return;
		closing = true;
		sb.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
