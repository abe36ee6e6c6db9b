// The schema tests run twice (jest.config.js projects "zod 3" and "zod 4"): this proves each run really loads the
// zod it claims, so a mapping that silently fell back to zod 3 cannot make the zod 4 run pass.
import { z } from 'zod';

declare const EXPECTED_ZOD_MAJOR: number;

/** zod 4 exposes its version as `z.core.version`; zod 3 has no `core`. */
function loadedZodMajor(): number {
	const core = (z as unknown as { core?: { version?: { major?: number } } }).core;
	return core?.version?.major ?? 3;
}

it('runs under the zod major version its jest project maps', () => {
	expect(loadedZodMajor()).toBe(EXPECTED_ZOD_MAJOR);
});
