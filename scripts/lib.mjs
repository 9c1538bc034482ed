// Small helpers shared by the repository's scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command in the repository root, inheriting output; exits on failure unless told not to. */
export function run(command, args, { env, allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0 && !allowFailure) {
    console.error(`\n✗ ${[command, ...args].join(' ')} exited with ${result.status ?? result.signal}`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

/** Newest modification time under a directory (skipping node_modules and dist). */
export function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/**
 * Builds the server packages (incremental), the bundles the separate processes run (not needed by
 * `npm start`, which loads every service into one process), and the web app when its sources changed.
 */
export function buildAll({ force = false, bundles = true } = {}) {
  run(bin('tsc'), ['-b', 'tsconfig.json']);
  if (bundles) run(process.execPath, ['deploy/bundle.mjs']);
  const index = path.join(root, 'frontend', 'dist', 'index.html');
  const stale = !existsSync(index) || newest(path.join(root, 'frontend')) > statSync(index).mtimeMs;
  if (force || stale) run('npm', ['run', 'build', '--silent', '-w', '@timeliner/frontend']);
}
