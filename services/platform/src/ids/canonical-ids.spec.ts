import { describe, expect, it } from '@jest/globals';
import { canonicalPath } from './canonical-ids.js';

describe('canonicalPath', () => {
  it('lower-cases every UUID segment of the path', () => {
    expect(canonicalPath('/api/timelines/8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B/collaborators/ABCDEF01-2345-4678-9ABC-DEF012345678')).toBe(
      '/api/timelines/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b/collaborators/abcdef01-2345-4678-9abc-def012345678',
    );
  });

  it('leaves the query string, other segments and partial matches alone', () => {
    expect(canonicalPath('/api/media/8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B/hls/Index.M3U8?Cursor=ABC')).toBe('/api/media/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b/hls/Index.M3U8?Cursor=ABC');
    expect(canonicalPath('/api/invitations/AbCdEf0123456789AbCdEf0123456789AbCdEf01234')).toBe('/api/invitations/AbCdEf0123456789AbCdEf0123456789AbCdEf01234');
    expect(canonicalPath('/api/x/8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5BX')).toBe('/api/x/8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5BX');
    expect(canonicalPath('/api/timelines?id=8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B')).toBe('/api/timelines?id=8F0C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B');
  });
});
