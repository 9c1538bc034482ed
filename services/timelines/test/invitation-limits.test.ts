import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** One account must not turn invitations into a free-text mail cannon. */
describe('invitation e-mails per person', () => {
  describe('with the default limits', () => {
    let h: TimelinesHarness;
    let ada: Person;
    let bob: Person;
    let timelineId: string;

    beforeAll(async () => {
      h = await startHarness('tlinvlimit');
      ada = await h.register({ displayName: 'Ada' });
      bob = await h.register({ displayName: 'Bob' });
      timelineId = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Mail cannon' }).expect(201)).body.id;
    });
    afterAll(async () => {
      await h.close();
    });

    it('sends 20 an hour, then answers 429 with Retry-After and sends nothing more', async () => {
      for (let i = 0; i < 20; i++) {
        await h.call('post', `/api/timelines/${timelineId}/invite`, as(ada)).send({ email: `target${i}@example.com`, message: 'Buy now' }).expect(201);
      }
      const refused = await h.call('post', `/api/timelines/${timelineId}/invite`, as(ada)).send({ email: 'target20@example.com', message: 'Buy now' }).expect(429);
      expect(refused.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^You can send at most 20 invitation e-mails an hour; try again in \d+ minutes$/) });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3_500);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      expect(refused.body.retryAfterSeconds).toBe(retryAfter);
      expect(await h.mails()).toHaveLength(20);
      expect(await h.query(`SELECT id FROM invitations WHERE email = 'target20@example.com'`)).toEqual([]);

      // A resend is an e-mail too.
      const [open] = await h.query<{ id: string }>(`SELECT id FROM invitations WHERE email = 'target0@example.com'`);
      await h.call('post', `/api/invitations/${open!.id}/resend`, as(ada)).expect(429);
      expect(await h.mails()).toHaveLength(20);
    });

    it('counts per person: someone else still invites', async () => {
      const own = (await h.call('post', '/api/timelines', as(bob)).send({ title: 'Bob’s' }).expect(201)).body.id;
      await h.call('post', `/api/timelines/${own}/invite`, as(bob)).send({ email: 'friend@example.com' }).expect(201);
    });
  });

  describe('per day', () => {
    let h: TimelinesHarness;
    let ada: Person;
    let timelineId: string;

    beforeAll(async () => {
      h = await startHarness('tlinvday', { invitationMailLimits: { perHour: 2, perDay: 3 } });
      ada = await h.register({ displayName: 'Ada' });
      timelineId = (await h.call('post', '/api/timelines', as(ada)).send({ title: 'Daily' }).expect(201)).body.id;
    });
    afterAll(async () => {
      await h.close();
    });

    it('refuses past the day’s limit even when the hour has room, until the oldest is a day old', async () => {
      const invite = (n: number) => h.call('post', `/api/timelines/${timelineId}/invite`, as(ada)).send({ email: `day${n}@example.com` });
      await invite(1).expect(201);
      await invite(2).expect(201);
      expect((await invite(3).expect(429)).body.message).toMatch(/an hour/);
      // Those two were sent two and three hours ago: the hour has room, the day has one.
      await h.query(`UPDATE person_limit_hits SET at = at - interval '2 hours'`);
      await h.query(`UPDATE person_limit_hits SET at = at - interval '1 hour' WHERE id = (SELECT min(id) FROM person_limit_hits)`);
      await invite(3).expect(201);
      const refused = await invite(4).expect(429);
      expect(refused.body.message).toMatch(/^You can send at most 3 invitation e-mails a day; try again in 21 hours$/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(21 * 3_600 - 60);
      expect(retryAfter).toBeLessThanOrEqual(21 * 3_600);
    });
  });
});
