import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const lib = path.resolve(import.meta.dirname, 'lib.mjs');

/** Runs `run()` of scripts/lib.mjs in a child process and answers what reached its terminal. */
function runThrough(script: string, quiet: boolean) {
  const code = `import { run } from ${JSON.stringify(lib)};
    run(process.execPath, ['-e', ${JSON.stringify(script)}], { quiet: ${quiet} });
    console.log('after');`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  return { status: child.status, out: child.stdout, err: child.stderr };
}

const noisy = "for (let i = 0; i < 100; i++) console.log('vite: asset ' + i); console.error('a warning');";

describe('scripts/lib run()', () => {
  it('keeps a quiet command silent when it succeeds (npm start shows one line, not the build log)', () => {
    const { status, out, err } = runThrough(noisy, true);
    expect(status).toBe(0);
    expect(out).toBe('after\n');
    expect(err).toBe('');
  });

  it('shows a quiet command\'s whole output when it fails, then stops', () => {
    const { status, out, err } = runThrough(`${noisy} process.exit(3);`, true);
    expect(status).toBe(3);
    expect(out).toContain('vite: asset 99');
    expect(out).not.toContain('after');
    expect(err).toContain('a warning');
    expect(err).toMatch(/exited with 3/);
  });

  it('passes output through as it comes otherwise', () => {
    const { status, out } = runThrough(noisy, false);
    expect(status).toBe(0);
    expect(out.split('\n').filter((line) => line.startsWith('vite: asset'))).toHaveLength(100);
  });
});
