/**
 * The code a scenario runs: this working tree, or an older commit exported (git archive, no git metadata
 * touched) into a cache folder beside the system's temp files, with this tree's node_modules linked in (the
 * dependencies are the same: n8n-core 2.41.1, n8n-workflow). Exported once per commit and reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');

/** The folder whose test/harness runs the workflow for `revision` (undefined = this working tree). */
export function codeTree(revision: string | undefined): string {
	if (revision === undefined) return ROOT;
	const sha = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
	const dir = join(tmpdir(), 'n8n-nodes-consignment-vendor-bench', sha);
	const done = join(dir, '.exported');
	const linked = join(dir, 'node_modules');
	// The link must lead to this tree's node_modules: one made from another checkout (since removed) would not.
	if (existsSync(done) && existsSync(linked) && realpathSync(linked) === realpathSync(join(ROOT, 'node_modules'))) return dir;
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const archive = execFileSync('git', ['archive', '--format=tar', sha], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
	execFileSync('tar', ['-x', '-C', dir], { input: archive });
	symlinkSync(join(ROOT, 'node_modules'), linked, 'dir');
	writeFileSync(done, `${sha}\n`);
	return dir;
}
