// The module-boundary rules in .dependency-cruiser.cjs, run through dependency-cruiser's own API
// over fixture trees that mirror the repository layout. `violations/` crosses every boundary once,
// by relative path and by package name; `clean/` uses every allowed edge once. The last case runs
// the same rules over the real source tree, so `npm test` guards the boundaries even where
// `npm run lint` is not run.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const fixtures = join(here, 'fixtures');
const ROOTS = ['proto', 'services', 'gateway', 'frontend/src'];

async function cruiseTree(baseDir: string): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.cjs'));
  const roots = ROOTS.filter((root) => existsSync(join(baseDir, root)));
  const { output } = await cruise(roots, { ...options, baseDir });
  if (typeof output === 'string') throw new Error('expected a structured cruise result');
  return output;
}

/** `rule from → to`, with a package import shown by name wherever the resolver found it. */
function violationsOf(result: ICruiseResult): string[] {
  return result.summary.violations
    .map((v) => `${v.rule.name} ${v.from} → ${v.to.replace(/^.*node_modules\/(@timeliner\/[^/]+).*$/, '$1')}`)
    .sort();
}

describe('module boundaries (.dependency-cruiser.cjs)', () => {
  it('accepts every allowed edge', async () => {
    const result = await cruiseTree(join(fixtures, 'clean'));
    expect(violationsOf(result)).toEqual([]);
    // Guard against a vacuous pass: the fixture's imports were actually seen.
    expect(result.summary.totalDependenciesCruised).toBeGreaterThanOrEqual(12);
  });

  describe('reports each crossing by rule name', () => {
    const expected = [
      // a service importing another service
      'service-imports-other-service services/social/src/imports-auth-by-path.ts → services/auth/src/index.ts',
      'service-imports-other-service services/social/src/imports-auth-by-name.ts → @timeliner/auth',
      'service-imports-other-service services/social/src/imports-auth-types-only.ts → services/auth/src/index.ts',
      // a service importing the gateway
      'service-imports-gateway services/social/src/imports-gateway-by-path.ts → gateway/src/index.ts',
      'service-imports-gateway services/social/src/imports-gateway-by-name.ts → @timeliner/gateway',
      // the gateway importing a service
      'gateway-imports-service gateway/src/imports-auth-by-path.ts → services/auth/src/index.ts',
      'gateway-imports-service gateway/src/imports-auth-by-name.ts → @timeliner/auth',
      // the shared runtime importing an app, proto importing anything of ours
      'platform-imports-app services/platform/src/imports-auth.ts → @timeliner/auth',
      'proto-imports-ours proto/src/imports-platform.ts → services/platform/src/index.ts',
      // the frontend importing server code, Node built-ins, or leaving its folder
      'frontend-imports-server-code frontend/src/imports-platform-by-path.ts → services/platform/src/index.ts',
      'frontend-imports-outside-frontend frontend/src/imports-platform-by-path.ts → services/platform/src/index.ts',
      'frontend-imports-server-code frontend/src/imports-platform-by-name.ts → @timeliner/platform',
      'frontend-imports-server-code frontend/src/imports-gateway-by-name.ts → @timeliner/gateway',
      'frontend-imports-node-builtin frontend/src/imports-node-builtin.ts → fs',
      'frontend-imports-proto-at-runtime frontend/src/imports-proto-at-runtime.ts → @timeliner/proto',
      'frontend-imports-outside-frontend frontend/src/imports-proto-by-path.ts → proto/src/index.ts',
      // a web-app feature importing another feature
      'frontend-feature-imports-other-feature frontend/src/features/feed/imports-posts.ts → frontend/src/features/posts/post-card.tsx',
      'frontend-feature-imports-other-feature frontend/src/features/feed/imports-posts-types-only.ts → frontend/src/features/posts/post-card.tsx',
    ].sort();

    let reported: Promise<string[]> | undefined;
    const violations = () => (reported ??= cruiseTree(join(fixtures, 'violations')).then(violationsOf));

    it.each(expected)('%s', async (violation) => {
      expect(await violations()).toContain(violation);
    });

    it('and nothing else (the allowed edges in the same tree pass)', async () => {
      expect(await violations()).toEqual(expected);
    });
  });

  it('holds for the repository itself', async () => {
    const result = await cruiseTree(repoRoot);
    expect(violationsOf(result)).toEqual([]);
  });
});
