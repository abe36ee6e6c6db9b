import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';
import { SANDBOX_SIGNING_SECRET } from './templates';

/**
 * The sandbox of `npm run dev`, `npm run dev:queue` and `npm run test:ui`: it signs its webhook deliveries with the
 * secret the imported credential carries (templates.ts). Unsigned, every delivery gets a 401 from the trigger, which
 * the editor never shows: "Listening for test event" would simply wait forever.
 */
export async function startSigningSandbox(port: number): Promise<SandboxProcess> {
	const sandbox = await startSandboxProcess(port);
	try {
		await new SandboxAdmin(sandbox.baseUrl).setSigningSecret(SANDBOX_SIGNING_SECRET);
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
	return sandbox;
}
