import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLogger, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { AuthEvents, MediaEvents, MediaType } from '@timeliner/proto';
import { startSearchService } from '../../services/search/src/index.js';
import { startSocialService } from '../../services/social/src/index.js';
import { type Person, startHarness, type TimelinesHarness } from '../../services/timelines/test/harness.js';

/**
 * A private account's content never reaches a stranger (issue 28): every GET route of the
 * timelines, social and search services, read from their OpenAPI documents (so a read route added
 * later is covered without being named), asked by a stranger, by someone whose follow request
 * waits and by a signed-out caller about the private account's things, answers 403, 404, 400 or
 * an answer in which none of its posts, timelines, videos, comments, hashtags or words appear.
 * The profile header (its id and name) may appear: strangers see it with "This account is
 * private". An approved follower, asked the same, does see the content (the rule lets them in).
 */
type Caller = 'stranger' | 'requester' | 'anonymous' | 'follower';

let timelines: TimelinesHarness;
let social: RunningService;
let search: RunningService;
const dbs: TestDatabase[] = [];
let owner: Person;
let people: Record<Exclude<Caller, 'anonymous'>, Person>;
const word = `hush${randomBytes(4).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
const content = { timelineId: '', unlistedId: '', videoId: '', postId: '', commentIds: [] as string[], collectionId: '' };

const services = () => ({ timelines: timelines.service.url, social: social.url, search: search.url });

function call(base: string, method: 'get' | 'post' | 'patch', path: string, who: Person | undefined) {
  const requestId = `private-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(timelines.secret, { userId: who?.userId, sessionId: who?.sessionId, clientIp: '198.51.100.11' }, { requestId, method: method.toUpperCase(), url: path });
  return request(base)[method](path).set(headers).set('x-request-id', requestId);
}
const as = (who: Caller): Person | undefined => (who === 'anonymous' ? undefined : people[who]);

beforeAll(async () => {
  timelines = await startHarness('privateaccount');
  const logger = createLogger('private-account', process.env.TEST_LOG_LEVEL ?? 'silent');
  const [socialDb, searchDb] = [await createTestDatabase('privateaccountsocial'), await createTestDatabase('privateaccountsearch')];
  dbs.push(socialDb, searchDb);
  social = await startSocialService({ databaseUrl: socialDb.url, bus: timelines.bus, logger, identitySecret: timelines.secret, port: 0, host: '127.0.0.1' });
  search = await startSearchService({ databaseUrl: searchDb.url, bus: timelines.bus, logger, identitySecret: timelines.secret, port: 0, host: '127.0.0.1' });
  owner = await timelines.register({ displayName: 'Pia Private', username: `pia_${word}` });
  people = { stranger: await timelines.register({ displayName: 'Sam Stranger' }), requester: await timelines.register({ displayName: 'Rae Requester' }), follower: await timelines.register({ displayName: 'Fay Follower' }) };
  const socialQuery = async (sql: string, params: unknown[] = []) => (await social.app.get((await import('typeorm')).DataSource).query(sql, params)) as unknown[];
  await timelines.waitFor(async () => (await socialQuery('SELECT id FROM users')).length === 4, 15_000);

  // The account's things, made while it is public; then it turns private.
  for (const [key, visibility] of [['timelineId', 'public'], ['unlistedId', 'unlisted']] as const) {
    const id = ((await call(timelines.service.url, 'post', '/api/timelines', owner).send({ title: `${word} by the lake`, description: `#${word}tag`, visibility }).expect(201)).body as { id: string }).id;
    await call(timelines.service.url, 'patch', `/api/timelines/${id}`, owner).send({ status: 'published' }).expect(200);
    content[key] = id;
  }
  content.videoId = randomUUID();
  await timelines.publish(MediaEvents.UploadCompleted, { mediaId: content.videoId, timelineId: content.timelineId, uploaderId: owner.userId, mediaType: MediaType.VIDEO, originalName: `${word}.mp4`, mimeType: 'video/mp4', size: 1024n });
  await timelines.waitFor(async () => (await socialQuery(`SELECT 1 FROM feed_timelines WHERE status = 'published'`)).length === 2 && (await socialQuery('SELECT 1 FROM videos')).length === 1, 15_000);
  content.postId = ((await call(social.url, 'post', '/api/posts', owner).send({ content: `${word} only for my followers #${word}tag` }).expect(201)).body as { id: string }).id;
  for (const path of [`/api/timelines/${content.timelineId}/comments`, `/api/videos/${content.videoId}/comments`, `/api/posts/${content.postId}/comments`]) {
    content.commentIds.push(((await call(social.url, 'post', path, owner).send({ content: `${word} note` }).expect(201)).body as { id: string }).id);
  }
  await call(social.url, 'post', `/api/timelines/${content.timelineId}/like`, owner).expect(200);
  content.collectionId = ((await call(social.url, 'post', '/api/collections', owner).send({ name: `${word} picks` }).expect(201)).body as { id: string }).id;
  await call(social.url, 'post', `/api/collections/${content.collectionId}/timelines`, owner).send({ timelineId: content.timelineId });

  await timelines.publish(AuthEvents.UserUpdated, { userId: owner.userId, username: owner.username, displayName: owner.displayName, email: owner.email, isPrivate: true, profileVersion: 5n });
  await timelines.waitFor(async () => (await socialQuery('SELECT 1 FROM users WHERE id = $1 AND is_private', [owner.userId])).length === 1
    && (await timelines.query('SELECT 1 FROM users WHERE id = $1 AND is_private', [owner.userId])).length === 1, 15_000);
  // One asks and waits; one asks and is approved.
  for (const who of ['requester', 'follower'] as const) {
    expect((await call(social.url, 'post', `/api/users/${owner.userId}/follow`, people[who]).expect(200)).body).toMatchObject({ isFollowing: false, isRequested: true });
  }
  await call(social.url, 'post', `/api/follow-requests/${people.follower.userId}/approve`, owner).expect(200);
  await timelines.waitFor(async () => (await timelines.query('SELECT 1 FROM account_follows WHERE follower_id = $1 AND active', [people.follower.userId])).length === 1, 15_000);
  // search has applied the privacy too
  const searchQuery = async (sql: string, params: unknown[]) => (await search.app.get((await import('typeorm')).DataSource).query(sql, params)) as unknown[];
  await timelines.waitFor(async () => (await searchQuery('SELECT 1 FROM users WHERE id = $1 AND is_private', [owner.userId])).length === 1, 15_000);
}, 120_000);

afterAll(async () => {
  await search?.close();
  await social?.close();
  for (const db of dbs) await db.drop();
  await timelines?.close();
});

/** Every GET route of the three services, with the service that answers it. */
async function readRoutes(): Promise<Array<{ base: string; template: string }>> {
  const found: Array<{ base: string; template: string }> = [];
  for (const base of Object.values(services())) {
    const doc = (await request(base).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    for (const [template, ops] of Object.entries(doc.paths)) if ('get' in ops) found.push({ base, template });
  }
  return found;
}

/** The path of a route about the private account's things (query words that find them); null when a parameter names nothing this test knows. */
function fill(template: string): string | null {
  const kind = /^\/api\/(users|posts|timelines|videos|collections|follow-requests|media|invitations|exports)\//u.exec(template)?.[1];
  const id = { users: owner.userId, posts: content.postId, timelines: content.timelineId, videos: content.videoId, collections: content.collectionId, 'follow-requests': owner.userId, media: content.videoId }[kind ?? ''];
  let path = template;
  if (id) path = path.replace('{id}', id);
  path = path.replace('{userId}', owner.userId).replace('{commentId}', content.commentIds[1]!).replace('{timelineId}', content.timelineId).replace('{mediaId}', content.videoId)
    // an invitation or an export is nobody's content: an unknown one is simply not found
    .replace('{token}', randomUUID()).replace('{idOrToken}', randomUUID());
  if (/\{/u.test(path)) return null;
  return `${path}?q=${word}&tag=${word}tag&limit=50`;
}

/** What would give the private account's content away. */
const traces = () => [content.timelineId, content.unlistedId, content.videoId, content.postId, content.collectionId, ...content.commentIds, word];

describe("a private account's content never reaches a stranger", () => {
  it('reads the routes from the OpenAPI documents of timelines, social and search', async () => {
    const routes = await readRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(30);
    for (const service of Object.values(services())) expect(routes.some((r) => r.base === service)).toBe(true);
  });

  it.each(['stranger', 'requester', 'anonymous'] as const)('the %s asks every read route', async (who) => {
    const leaks: string[] = [];
    for (const { base, template } of await readRoutes()) {
      const path = fill(template);
      if (path === null) {
        leaks.push(`${template}: a parameter this test cannot fill`);
        continue;
      }
      const res = await call(base, 'get', path, as(who));
      if (res.status >= 500) leaks.push(`${template}: ${res.status}`);
      if (res.status >= 400) continue;
      const text = JSON.stringify(res.body ?? '') + (res.text ?? '');
      for (const trace of traces()) if (text.includes(trace)) leaks.push(`${template} shows ${trace === word ? 'its words' : trace}`);
    }
    expect(leaks).toEqual([]);
  }, 120_000);

  it('lets the approved follower see it, and the profile header stays for everyone', async () => {
    await call(social.url, 'get', `/api/posts/${content.postId}`, people.follower).expect(200);
    await call(timelines.service.url, 'get', `/api/timelines/${content.timelineId}`, people.follower).expect(200);
    await call(social.url, 'get', `/api/timelines/${content.timelineId}/comments`, people.follower).expect(200);
    await call(social.url, 'get', `/api/users/${owner.userId}/timelines`, people.follower).expect(200);
    // strangers: the account's counts and the private flag, not its content
    expect((await call(social.url, 'get', `/api/users/${owner.userId}/following`, people.stranger).expect(200)).body).toMatchObject({ isFollowing: false, followersCount: 1 });
    expect((await call(social.url, 'get', `/api/users/${owner.userId}/timelines`, people.stranger).expect(403)).body.message).toBe('This account is private');
  });
});
