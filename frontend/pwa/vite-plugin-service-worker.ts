import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

const TEMPLATE = new URL('./service-worker.js', import.meta.url);

/** Files never precached: the worker itself, source maps and dotfiles (the gateway serves none). */
function isPrecached(path: string): boolean {
  return path !== 'sw.js' && !path.endsWith('.map') && !path.split('/').some((part) => part.startsWith('.'));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** The URLs of the app shell in `outDir` and a hash of their contents. */
export function precacheManifest(outDir: string): { urls: string[]; version: string } {
  const files = listFiles(outDir)
    .map((path) => ({ path, url: relative(outDir, path).split(sep).join('/') }))
    .filter(({ url }) => isPrecached(url))
    .sort((a, b) => a.url.localeCompare(b.url));
  const hash = createHash('sha256');
  for (const { path, url } of files) hash.update(url).update('\0').update(readFileSync(path)).update('\0');
  return { urls: files.map(({ url }) => `/${url}`), version: hash.digest('hex').slice(0, 16) };
}

/**
 * Writes `sw.js` into the build output once everything else is written, with the list of files
 * to precache. Dev builds have no worker.
 */
export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'timeliner:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle(error?: Error) {
      if (error) return;
      const outDir = join(config.root, config.build.outDir);
      const { urls, version } = precacheManifest(outDir);
      const prelude =
        `// Generated at build time.\n` +
        `const CACHE_VERSION = ${JSON.stringify(version)};\n` +
        `const PRECACHE_URLS = ${JSON.stringify(urls, null, 2)};\n\n`;
      writeFileSync(join(outDir, 'sw.js'), prelude + readFileSync(TEMPLATE, 'utf8'));
      config.logger.info(`service worker: dist/sw.js precaches ${urls.length} files (cache ${version})`);
    },
  };
}
