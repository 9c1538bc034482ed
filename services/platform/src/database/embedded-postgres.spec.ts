import { describe, expect, it } from '@jest/globals';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { firstClosedDirectory } from './embedded-postgres.js';

describe('firstClosedDirectory', () => {
  it('finds the directory on the way that other users cannot enter, and nothing when all are open', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'closed-'));
    try {
      const inner = path.join(root, 'checkout', '.data');
      await mkdir(inner, { recursive: true });
      await chmod(root, 0o700);
      expect(firstClosedDirectory([inner])).toBe(root);
      await chmod(root, 0o755);
      expect(firstClosedDirectory([inner])).toBeUndefined();
      await chmod(path.join(root, 'checkout'), 0o750);
      expect(firstClosedDirectory([root, inner])).toBe(path.join(root, 'checkout'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
