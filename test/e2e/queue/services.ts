/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages (Debian 12: Postgres 15, Redis 7.0), installed
 * with apt-get when missing and run by the suite itself (no service manager here): loopback ports, data in a
 * temporary folder, stopped by `stop()` (the caller calls it in a finally, also after a failure).
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { exec, tail } from '../lib/exec';
import { freePort } from '../lib/ports';

export interface QueueServices {
	postgres: { host: string; port: number; database: string; user: string };
	redis: { host: string; port: number };
	/** The temporary folder holding both data directories and their logs. */
	dir: string;
	stop(): Promise<void>;
}

const DATABASE = 'n8n';

function onPath(command: string): boolean {
	return (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, command)));
}

/** `/usr/lib/postgresql/<newest>/bin`, where Debian puts initdb and pg_ctl (not on PATH). */
function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** apt-get update + install of what is missing (CI starts from a clean machine). */
export async function ensureDebianPackages(log: (m: string) => void): Promise<void> {
	const missing = [
		...(onPath('redis-server') ? [] : ['redis-server']),
		...(postgresBin() ? [] : ['postgresql']),
	];
	if (!missing.length) return;
	if (process.getuid?.() !== 0) throw new Error(`${missing.join(' and ')} missing, and installing them needs root: apt-get install -y ${missing.join(' ')}`);
	log(`apt-get install ${missing.join(' ')} (about a minute)`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const update = await exec('apt-get', ['update', '-qq'], { env, timeoutMs: 300_000 });
	if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update.stdout + update.stderr)}`);
	const install = await exec('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env, timeoutMs: 600_000 });
	if (install.code !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${tail(install.stdout + install.stderr)}`);
}

/** Runs a Postgres tool as the `postgres` user when we are root (initdb refuses root), else as ourselves. */
async function asPostgres(command: string, args: string[], timeoutMs = 60_000) {
	const asRoot = process.getuid?.() === 0;
	const result = asRoot
		? await exec('runuser', ['-u', 'postgres', '--', command, ...args], { timeoutMs })
		: await exec(command, args, { timeoutMs });
	if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${tail(result.stdout + result.stderr)}`);
	return result;
}

export async function startQueueServices(log: (m: string) => void): Promise<QueueServices> {
	await ensureDebianPackages(log);
	const bin = postgresBin();
	if (!bin) throw new Error('Postgres is not installed under /usr/lib/postgresql');
	const dir = mkdtempSync(join(tmpdir(), 'cv-queue-'));
	const pgData = join(dir, 'pg');
	const redisDir = join(dir, 'redis');
	mkdirSync(pgData);
	mkdirSync(redisDir);
	if (process.getuid?.() === 0) {
		const { uid, gid } = await postgresIds();
		chownSync(dir, uid, gid); // the socket directory
		chownSync(pgData, uid, gid);
	}
	const pgPort = await freePort();
	const redisPort = await freePort();
	const stops: Array<() => Promise<void>> = [];
	const stop = async () => {
		for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		await asPostgres(join(bin, 'initdb'), ['-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync'], 120_000);
		await asPostgres(join(bin, 'pg_ctl'), [
			'-D', pgData, '-w', '-l', join(dir, 'pg.log'),
			'-o', `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
			'start',
		]);
		stops.push(async () => {
			await asPostgres(join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'immediate', '-w', 'stop']);
		});
		await asPostgres('psql', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-c', `CREATE DATABASE ${DATABASE}`]);

		const redis = await exec('redis-server', [
			'--port', String(redisPort), '--bind', '127.0.0.1', '--dir', redisDir, '--daemonize', 'yes',
			'--pidfile', join(redisDir, 'redis.pid'), '--logfile', join(redisDir, 'redis.log'), '--save', '', '--appendonly', 'no',
		]);
		if (redis.code !== 0) throw new Error(`redis-server failed:\n${tail(redis.stdout + redis.stderr)}`);
		stops.push(async () => {
			await exec('redis-cli', ['-h', '127.0.0.1', '-p', String(redisPort), 'shutdown', 'nosave'], { timeoutMs: 10_000 });
		});
		await waitForRedis(redisPort);
	} catch (error) {
		await stop();
		throw error;
	}
	// Both run as daemons outside our process groups: if this process ends without calling stop() (Ctrl-C, a CI
	// timeout's SIGTERM, an uncaught error), they are told to shut down at exit all the same.
	const pids = [pidIn(join(pgData, 'postmaster.pid')), pidIn(join(redisDir, 'redis.pid'))];
	const stopAtExit = () => {
		for (const pid of pids) {
			try {
				if (pid) process.kill(pid, 'SIGQUIT'); // Postgres: immediate shutdown; Redis: quits
			} catch {
				// already gone
			}
		}
	};
	process.on('exit', stopAtExit);
	stops.unshift(async () => {
		process.off('exit', stopAtExit);
	});
	log(`Postgres on 127.0.0.1:${pgPort}, Redis on 127.0.0.1:${redisPort} (data in ${dir})`);
	return {
		postgres: { host: '127.0.0.1', port: pgPort, database: DATABASE, user: 'postgres' },
		redis: { host: '127.0.0.1', port: redisPort },
		dir,
		stop,
	};
}

function pidIn(file: string): number | undefined {
	try {
		const pid = Number(readFileSync(file, 'utf8').split('\n')[0].trim());
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
	const [uid, gid] = await Promise.all([exec('id', ['-u', 'postgres']), exec('id', ['-g', 'postgres'])]);
	if (uid.code !== 0 || gid.code !== 0) throw new Error('there is no postgres user (is the postgresql package installed?)');
	return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function waitForRedis(port: number): Promise<void> {
	for (let i = 0; i < 50; i++) {
		const ping = await exec('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { timeoutMs: 5_000 });
		if (ping.stdout.includes('PONG')) return;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`Redis on port ${port} did not answer PING`);
}
