import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { serviceWorker } from './pwa/vite-plugin-service-worker.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const API_TARGET = 'http://127.0.0.1:8080';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : [path];
    });
}

/** The installed version of each runtime dependency: an upgrade changes the app too. */
function dependencyVersions(dependencies: Record<string, string>): string {
  const require = createRequire(join(root, 'package.json'));
  return Object.keys(dependencies)
    .sort()
    .map((name) => {
      try {
        return `${name}@${(require(`${name}/package.json`) as { version: string }).version}`;
      } catch {
        return `${name}@${dependencies[name]}`; // A package that does not export its package.json.
      }
    })
    .join('\n');
}

/**
 * The app version: the package version plus a hash of everything the build is made from
 * (sources, static files, the page, installed dependency versions), so the version changes
 * exactly when the app does. APP_VERSION overrides it.
 */
function appVersion(): string {
  if (process.env.APP_VERSION) return process.env.APP_VERSION;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  const hash = createHash('sha256').update(dependencyVersions(pkg.dependencies));
  const inputs = [join(root, 'package.json'), join(root, 'index.html'), ...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'public'))];
  for (const path of inputs) hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
  return `${pkg.version}+${hash.digest('hex').slice(0, 10)}`;
}

export default defineConfig({
  root,
  plugins: [react(), serviceWorker()],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion()),
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/ws': { target: API_TARGET, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET },
      '/ws': { target: API_TARGET, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // Everything is a file: no inlined data URLs or scripts, so a strict CSP holds.
    assetsInlineLimit: 0,
    // One style sheet for the whole app, loaded with the page: a route's code never waits for its
    // own sheet, and the cascade is the same whatever order the screens are visited in.
    cssCodeSplit: false,
    // dist/.vite/manifest.json: which chunks each route's code needs, for the per-route transfer
    // report (scripts/bundle-budget.mjs). A dotfile: the gateway never serves it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The small helpers the feed's cards share with other screens, as one file: split by
              // importer they came to a dozen files of under 1 KB, each costing a request and about
              // 300 bytes of headers on a phone's first paint.
              name: 'card-helpers',
              test: /src[\\/](lib[\\/](share-intents|format|after-first-render|bookmarks)|features[\\/](feed[\\/]api[\\/]feed-cache|timelines[\\/]lib[\\/]share-links|auth[\\/]api[\\/]logout)|components[\\/]ui[\\/](avatar|on-demand-menu))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
});
