// The npm registry reachable from these machines is a partial copy: it lacks the other platforms' builds of
// some native packages (e.g. @unrs/resolver-binding-darwin-arm64, an optional dependency of unrs-resolver,
// which jest 30 and eslint-plugin-import-x use). `npm install` then leaves them out of package-lock.json,
// and `npm ci` refuses the lock as "out of sync" (Missing: ... from lock file).
// This adds a lock entry for each missing platform build, marked optional with its os/cpu, exactly as npm
// writes them on the public registry. npm ci skips them on a non-matching platform without fetching anything.
// Run it after `npm install` changes the lock: node .ci/complete-lockfile.js
'use strict';
const fs = require('fs');
const path = require('path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** os / cpu / libc from a platform package's name suffix, e.g. "linux-arm-musleabihf" or "win32-x64-msvc". */
function platformOf(name) {
	const suffix = name.split('/').pop().replace(/^resolver-binding-/, '');
	const [os, cpu, abi] = suffix.split('-');
	const entry = { os: [os], cpu: [cpu === 'arm' ? 'arm' : cpu] };
	if (os === 'linux') entry.libc = [abi && abi.startsWith('musl') ? 'musl' : 'glibc'];
	return entry;
}

let added = 0;
for (const [location, info] of Object.entries(packages)) {
	for (const [dep, version] of Object.entries(info.optionalDependencies || {})) {
		if (!dep.startsWith('@unrs/resolver-binding-')) continue;
		const parent = location === '' ? '' : `${location}/`;
		const nested = `${parent}node_modules/${dep}`;
		const hoisted = `node_modules/${dep}`;
		if (packages[nested] || packages[hoisted]) continue;
		const { os, cpu, libc } = platformOf(dep);
		packages[hoisted] = { version, cpu, dev: true, ...(libc ? { libc } : {}), license: 'MIT', optional: true, os };
		added++;
	}
}

fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} missing platform entries`);
