import { describe, expect, it } from '@jest/globals';
import { isAvatarPath } from './auth.dto.js';

const id = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe('isAvatarPath', () => {
  it('takes our own image paths, by id, and an empty value', () => {
    for (const path of ['', `/api/media/${id}/file`, `/api/media/${id}/file?variant=web`, `/api/users/${id.toUpperCase()}/avatar`, `/api/users/${id}/avatar?v=1764500000000`]) {
      expect([path, isAvatarPath(path)]).toEqual([path, true]);
    }
  });

  it('refuses other hosts, other paths, ids that are not UUIDs and anything after the path', () => {
    for (const path of [
      'https://evil.example/a.png',
      `//evil.example/api/media/${id}/file`,
      `/api/media/${id}/file?variant=original`,
      `/api/media/${id}x/file`,
      `/api/media/x/${id}/file`,
      `/api/users/${id}/avatar?v=12345678901234567`,
      `/api/users/${id}/avatar\n`,
      `/api/media/${id}/file#x`,
      `/api/timelines/${id}/file`,
      ' ',
    ]) {
      expect([path, isAvatarPath(path)]).toEqual([path, false]);
    }
    expect(isAvatarPath(42)).toBe(false);
  });
});
