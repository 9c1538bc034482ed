import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

/** Issue 28 item 6: "Always show sensitive media" is kept on the server, per person. */
describe('viewing preferences', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('viewprefs');
  });
  afterAll(async () => {
    await h.close();
  });

  /** A new person, signed in (identity headers as the gateway signs them). */
  const register = async () => ({ userId: (await h.call('post', '/api/auth/register').send(newUser()).expect(201)).body.user.id as string, sessionId: randomUUID() });
  type As = Awaited<ReturnType<typeof register>>;
  const prefs = (as: As) => h.call('get', '/api/auth/preferences', as);
  const change = (as: As, body: unknown) => h.call('put', '/api/auth/preferences', as).send(body as object);

  it('starts with sensitive media covered, keeps a change per person, and refuses bad input changing nothing', async () => {
    const [ana, ben] = [await register(), await register()];
    expect((await prefs(ana).expect(200)).body).toEqual({ alwaysShowSensitive: false });
    expect((await change(ana, { alwaysShowSensitive: true }).expect(200)).body).toEqual({ alwaysShowSensitive: true });
    expect((await prefs(ana).expect(200)).body).toEqual({ alwaysShowSensitive: true });
    expect((await prefs(ben).expect(200)).body).toEqual({ alwaysShowSensitive: false });
    expect((await change(ana, { alwaysShowSensitive: 'no' }).expect(400)).body.message).toBe('alwaysShowSensitive must be true or false');
    expect((await change(ana, {}).expect(200)).body).toEqual({ alwaysShowSensitive: true });
    expect((await change(ana, { alwaysShowSensitive: false }).expect(200)).body).toEqual({ alwaysShowSensitive: false });
    await h.call('get', '/api/auth/preferences').expect(401);
  });
});
