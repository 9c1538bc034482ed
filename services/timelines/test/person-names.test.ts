import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { UserDirectory } from '../src/users/user-directory.js';
import { UserRepository } from '../src/users/user.repository.js';
import { startHarness, type TimelinesHarness } from './harness.js';

/**
 * A person who creates a timeline the moment they have signed up: the service may not have heard of
 * the registration yet, so the row is written with "Unknown User", and the registration's handler
 * renames it. When the two run at the same moment, the handler must not miss the row still being
 * written (its UPDATE cannot see an uncommitted row), or the name stays "Unknown User" for good.
 */
describe('a name written while the registration is handled', () => {
  let h: TimelinesHarness;

  beforeAll(async () => {
    h = await startHarness('tlpersonnames');
  });
  afterAll(async () => {
    await h.close();
  });

  it('ends as the person’s name, whichever commits first', async () => {
    const dataSource = h.service.app.get(DataSource);
    const directory = new UserDirectory(new UserRepository(dataSource), h.bus, {} as Logger);
    const userId = randomUUID();
    const timelineId = randomUUID();
    let written = '';
    await dataSource.transaction(async (manager) => {
      written = await directory.nameOf(userId, manager);
      await manager.query(`INSERT INTO timelines (id, title, creator_id, creator_name) VALUES ($1, 'Day one', $2, $3)`, [timelineId, userId, written]);
      // The registration arrives and is handled while this row is not committed yet.
      await h.publish(AuthEvents.UserRegistered, { userId, username: 'grace', displayName: 'Grace', email: `grace-${userId}@example.test` });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
    expect(written).toBe('Unknown User');
    await h.waitFor(async () => (await h.query<{ creator_name: string }>('SELECT creator_name FROM timelines WHERE id = $1', [timelineId]))[0]?.creator_name === 'Grace', 10_000);
  });
  it('keeps the newest profile version when profile changes are handled out of order', async () => {
    const userId = randomUUID();
    const email = `ordered-${userId}@example.test`;
    const profile = (version: number, name: string) => ({ userId, username: 'ordered', displayName: name, avatar: '', isPrivate: false, email, profileVersion: BigInt(version) });
    const applied = async (id: string) => h.waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1, 10_000);
    await applied(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ordered', displayName: 'One', email, profileVersion: 1n }));
    await applied(await h.publish(AuthEvents.UserUpdated, profile(3, 'Three')));
    await applied(await h.publish(AuthEvents.UserUpdated, profile(2, 'Two')));
    await applied(await h.publish(AuthEvents.UserRegistered, { userId, username: 'ordered', displayName: 'One', email, profileVersion: 1n }));
    const [row] = await h.query<{ display_name: string; v: number }>('SELECT display_name, profile_version::int AS v FROM users WHERE id = $1', [userId]);
    expect(row).toEqual({ display_name: 'Three', v: 3 });
  });
});
