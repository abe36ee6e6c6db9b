// n8n's filesystem binary data mode in this process (2.x's default outside queue mode): n8n's cli initialises the
// BinaryDataService at start; the harness leaves it uninitialised, which is n8n's in-memory mode.
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

export async function useFilesystemBinaryData(storagePath: string): Promise<void> {
	const service = Container.get(BinaryDataService);
	Object.assign((service as unknown as { config: object }).config, { mode: 'filesystem', localStoragePath: storagePath });
	await service.init();
}
