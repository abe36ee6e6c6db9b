import {
	ICredentials,
	type ICredentialDataDecryptedObject,
	type ICredentialsEncrypted,
	type INodeCredentialsDetails,
} from 'n8n-workflow';

/**
 * n8n-core's Credentials encrypts its data with the instance's key provider, which n8n 2.x only configures
 * with its database; the harness store holds decrypted data, so this ICredentials simply carries it.
 */
export class StoredCredentials extends ICredentials {
	private plain: ICredentialDataDecryptedObject;

	constructor(details: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		super(details, type);
		this.plain = structuredClone(data);
	}

	async getData(): Promise<ICredentialDataDecryptedObject> {
		return structuredClone(this.plain);
	}

	getDataToSave(): ICredentialsEncrypted {
		return { id: this.id, name: this.name, type: this.type, data: JSON.stringify(this.plain) };
	}

	async setData(data: ICredentialDataDecryptedObject): Promise<void> {
		this.plain = structuredClone(data);
	}

	async updateData(toUpdate: ICredentialDataDecryptedObject, toDelete: string[] = []): Promise<void> {
		const updated: ICredentialDataDecryptedObject = { ...this.plain, ...toUpdate };
		for (const key of toDelete) delete updated[key];
		this.plain = updated;
	}
}
