// Small helpers shared by the repository's scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * Runs a command in the repository root; exits on failure unless told not to. Its output goes to
 * the terminal as it comes, or with `quiet` is kept and shown only when the command fails (so a
 * routine build does not bury what matters, such as the address `npm start` prints).
 */
export function run(command, args, { env, allowFailure = false, quiet = false } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0 && quiet) {
    if (result.stdout?.length) process.stdout.write(result.stdout);
    if (result.stderr?.length) process.stderr.write(result.stderr);
  }
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
 * With `quiet` the tools' output is shown only on failure, and one line says what was built.
 */
export function buildAll({ force = false, bundles = true, quiet = false } = {}) {
  const started = Date.now();
  const built = ['server packages'];
  run(bin('tsc'), ['-b', 'tsconfig.json'], { quiet });
  if (bundles) {
    run(process.execPath, ['deploy/bundle.mjs'], { quiet });
    built.push('bundles');
  }
  const index = path.join(root, 'frontend', 'dist', 'index.html');
  const stale = !existsSync(index) || newest(path.join(root, 'frontend')) > statSync(index).mtimeMs;
  if (force || stale) {
    run('npm', ['run', 'build', '--silent', '-w', '@timeliner/frontend'], { quiet });
    built.push('web app');
  }
  if (quiet) console.log(`Built ${built.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
