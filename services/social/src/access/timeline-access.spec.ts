import { describe, expect, it } from '@jest/globals';
import type { TimelineAccess } from '@timeliner/platform';
import { requireVisibleTimeline } from './timeline-access.js';

const TIMELINE = '5f0c6c1e-8a4b-4c1e-9a53-1f6b2f0d9a11';
const USER = '0b7e4d52-3c6a-4f0e-8d1b-2a9c5e7f6b33';

describe('requireVisibleTimeline', () => {
  const answering = (canView: boolean): TimelineAccess & { calls: number } => {
    const port = {
      calls: 0,
      async check() {
        port.calls += 1;
        return { canView, canEdit: false, role: null, ownerId: '' };
      },
    };
    return port;
  };

  it('answers 404 for a timeline the caller may not see', async () => {
    await expect(requireVisibleTimeline(answering(false), TIMELINE, USER)).rejects.toMatchObject({ status: 404, message: 'Timeline not found' });
  });

  it('answers 404 for a malformed id without asking', async () => {
    const port = answering(true);
    await expect(requireVisibleTimeline(port, 'nope', USER)).rejects.toMatchObject({ status: 404 });
    expect(port.calls).toBe(0);
  });

  it('passes the answer on when the caller may see it', async () => {
    await expect(requireVisibleTimeline(answering(true), TIMELINE.toUpperCase(), undefined)).resolves.toMatchObject({ canView: true });
  });
});
