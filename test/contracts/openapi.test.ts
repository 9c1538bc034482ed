import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('API description', () => {
  it('frontend/src/api/openapi.json and the typed client match what the services generate', () => {
    const result = spawnSync(process.execPath, ['scripts/openapi.mjs', '--check'], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(`${result.stdout}${result.stderr}`).toContain('match the code');
    expect(result.status).toBe(0);
  }, 60_000);
});
