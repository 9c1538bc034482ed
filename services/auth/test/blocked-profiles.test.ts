import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BlockChangedSchema, SocialEvents } from '@timeliner/proto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const waitFor = async (check: () => Promise<boolean>, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A blocked pair's profiles are 404 to each other, as if absent (issue 28), from the social service's BlockChanged. */
describe('profiles of a blocked pair', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('authblocks');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async () => {
    const res = await h.call('post', '/api/auth/register').send(newUser()).expect(201);
    const id = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [id]);
    return { id, as: { userId: id, sessionId: session!.id } };
  };
  const block = async (blockerId: string, blockedId: string, active: boolean, version: bigint) => {
    const id = randomUUID();
    await h.bus.publish({
      subject: SocialEvents.BlockChanged.subject,
      meta: { id, type: SocialEvents.BlockChanged.type, version: SocialEvents.BlockChanged.version, occurredAt: new Date().toISOString() },
      data: toBinary(BlockChangedSchema, create(BlockChangedSchema, { blockerId, blockedId, active, version, at: timestampFromDate(new Date()) })),
    });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  };

  it('answers 404 both ways while the block stands, and only to the pair', async () => {
    const [ada, bob, cy] = [await register(), await register(), await register()];
    await h.call('get', `/api/users/${bob.id}/profile`, ada.as).expect(200);
    await block(ada.id, bob.id, true, 5n);
    expect((await h.call('get', `/api/users/${bob.id}/profile`, ada.as).expect(404)).body.message).toBe('User not found');
    await h.call('get', `/api/users/${ada.id}/profile`, bob.as).expect(404);
    await h.call('get', `/api/users/${bob.id}/profile`, cy.as).expect(200);
    await h.call('get', `/api/users/${ada.id}/profile`, ada.as).expect(200);
    // An older event arriving late changes nothing; the lifting does.
    await block(ada.id, bob.id, false, 4n);
    await h.call('get', `/api/users/${ada.id}/profile`, bob.as).expect(404);
    await block(ada.id, bob.id, false, 6n);
    await h.call('get', `/api/users/${ada.id}/profile`, bob.as).expect(200);
    await h.call('get', `/api/users/${bob.id}/profile`, ada.as).expect(200);
  });
});
