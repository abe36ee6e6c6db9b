// The credential types n8n knows in a harness run: this package's, as n8n-core's package loader loaded them.
// Mirrors what n8n's cli CredentialTypes answers (packages/cli/src/credential-types.ts).
import type { ICredentialType } from 'n8n-workflow';

import { packageNodeType } from './node-types';
import type { loadPackage } from './package-loader';

type LoadedPackage = Awaited<ReturnType<typeof loadPackage>>;

export class HarnessCredentialTypes {
	/** @param replacements instances used instead of the loaded ones of the same name (see RunOptions.credentialTypes). */
	constructor(
		private readonly loadedPackage: LoadedPackage,
		private readonly replacements: ICredentialType[] = [],
	) {}

	recognizes(typeName: string): boolean {
		return typeName in this.loadedPackage.credentialTypes;
	}

	getByName(typeName: string): ICredentialType {
		if (!this.recognizes(typeName)) {
			const problems = this.loadedPackage.problems;
			throw new Error(
				`Harness has no credential type "${typeName}"${problems.length > 0 ? `; files that failed to load: ${problems.join('; ')}` : ''}`,
			);
		}
		return this.replacements.find((type) => type.name === typeName) ?? this.loadedPackage.credentialTypes[typeName].type;
	}

	/** Every type `typeName` extends, transitively (cli: CredentialTypes.getParentTypes). */
	getParentTypes(typeName: string): string[] {
		const direct = this.loadedPackage.known.credentials[typeName]?.extends ?? [];
		return [...direct, ...direct.flatMap((parent) => this.getParentTypes(parent))];
	}

	/** Full node type names, as the loader inferred them from the nodes' `credentials`. */
	getSupportedNodes(typeName: string): string[] {
		return (this.loadedPackage.known.credentials[typeName]?.supportedNodes ?? []).map(packageNodeType);
	}
}
