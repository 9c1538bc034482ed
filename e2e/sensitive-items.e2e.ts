import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, newContext } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading } from './support/screens.js';
import { eventually } from './support/watch.js';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Issue 28 items 5–6 for single items: the creator marks one video of a timeline sensitive in the
 * studio, a viewer meets its blurred cover in the player and chooses Show, then reports it and the
 * creator's comment on it from the player; a moderator finds both on the desk and hides the video;
 * the creator sees it marked "Removed by moderators", and the viewer no longer finds it. Real
 * Chromium, the real product, phone and desktop.
 */
describe('sensitive and reported items', () => {
  let db: TestDatabase;
  let product: RunningProduct;
  let browser: Browser;
  let clip: string;

  beforeAll(async () => {
    db = await createTestDatabase('e2esensitiveitems');
    product = await startProduct('e2esensitiveitems', { DATABASE_URL: db.url });
    browser = await launchBrowser();
    clip = makeClip('stitches.mp4', 3);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await db?.drop();
  }, 60_000);

  for (const viewport of journeyViewports) {
    it(`mark an item sensitive, cover and Show, report, hide, removed for its creator (${viewport.name})`, async () => {
      const register = (first: string, last: string): Promise<RegisteredAccount> => registerThroughApi(product.baseUrl, newAccount(first, last));
      const [creator, viewer, moderator] = [await register('Cara', 'Creator'), await register('Vic', 'Viewer'), await register('Mona', 'Moderator')];
      await promisify(execFile)(process.execPath, [path.join(root, 'scripts/admin.mjs'), 'grant', moderator.username, 'moderator'], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: db.url, LOG_LEVEL: 'silent' } });
      const title = `Ward rounds (${viewport.name})`;
      const timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, title, clip);
      const [video] = (await callApi<Array<{ id: string; title: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token })).body;
      // A comment by the creator on the video, and one by the viewer (who is offered no Report on their own).
      const rude = `Mind your own business (${viewport.name})`;
      for (const [person, content] of [[creator, rude], [viewer, 'Hard to watch']] as const) {
        expect((await callApi(product.baseUrl, 'POST', `/api/videos/${video!.id}/comments`, { token: person.token, body: { content } })).status).toBe(201);
      }

      const open = async (person: RegisteredAccount) => {
        const { context, problems } = await newContext(browser, viewport, product.baseUrl);
        context.setDefaultTimeout(20_000);
        await signInWithToken(context, person.token);
        return { context, problems, page: await context.newPage() };
      };

      // The creator marks the one video sensitive in the studio's video management.
      const cara = await open(creator);
      await cara.page.goto(`/timeline/${timelineId}`);
      const row = cara.page.getByRole('listitem').filter({ hasText: video!.title });
      const sensitive = row.getByRole('checkbox', { name: 'Sensitive' });
      await sensitive.check();
      await eventually('the mark saved', async () => {
        const videos = await callApi<Array<{ sensitive: boolean }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: viewer.token });
        return videos.body[0]?.sensitive === true || undefined;
      });

      // A viewer meets the cover in the player: nothing plays until Show.
      const vic = await open(viewer);
      await vic.page.goto(`/watch/${timelineId}`);
      const cover = vic.page.getByRole('group', { name: 'Sensitive content' });
      await cover.getByText('This video was marked sensitive.', { exact: false }).waitFor();
      expect(await vic.page.locator('video').count()).toBe(0);
      await button(cover, 'Show').click();
      await vic.page.locator('video').waitFor();

      // ...and reports it from the player.
      await vic.page.getByRole('region', { name: `${title}: video player` }).hover();
      await vic.page.getByRole('button', { name: 'Report this video' }).click();
      const dialog = vic.page.getByRole('dialog', { name: 'Report Video' });
      await dialog.getByRole('radio', { name: 'Violence' }).check();
      await dialog.getByLabel('Details (optional)').fill('Graphic surgery footage');
      await button(dialog, 'Report').click();
      await dialog.waitFor({ state: 'detached' });

      // ...and a comment on it, from the player's comments: Report for others' comments only.
      await vic.page.getByRole('region', { name: `${title}: video player` }).hover();
      await vic.page.getByRole('button', { name: /^Comments, / }).click();
      const comments = vic.page.getByRole('dialog', { name: 'Comments' });
      await comments.getByText('Hard to watch').waitFor();
      expect(await comments.getByRole('button', { name: 'Report comment from Vic Viewer' }).count()).toBe(0);
      await button(comments, 'Report comment from Cara Creator').click();
      const commentReport = vic.page.getByRole('dialog', { name: 'Report Comment' });
      await commentReport.getByRole('radio', { name: 'Harassment or bullying' }).check();
      await button(commentReport, 'Report').click();
      await commentReport.waitFor({ state: 'detached' });

      // The moderator finds it in the queue, in context, and hides it with a reason.
      const mona = await open(moderator);
      await mona.page.goto('/moderation');
      await heading(mona.page, 'Moderation').waitFor();
      await mona.page.getByRole('listitem', { name: 'Comment on a video reported by 1' }).filter({ hasText: rude }).getByText('harassment ×1').waitFor();
      const card = mona.page.getByRole('listitem', { name: 'Video or image reported by 1' }).filter({ hasText: title });
      await card.getByText('Graphic surgery footage').waitFor();
      expect(await card.getByRole('link', { name: 'Open in context' }).getAttribute('href')).toBe(`/watch/${timelineId}?video=${video!.id}`);
      await card.getByLabel('Reason').fill('Too graphic');
      await button(card, 'Hide').click();
      await card.waitFor({ state: 'detached' });

      // The creator sees it marked; the viewer no longer finds it.
      await eventually('the item hidden', async () => {
        const videos = await callApi<unknown[]>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: viewer.token });
        return videos.body.length === 0 || undefined;
      });
      await cara.page.reload();
      await cara.page.getByRole('listitem').filter({ hasText: video!.title }).getByText('Removed by moderators').waitFor();
      await vic.page.goto(`/watch/${timelineId}`);
      await vic.page.getByText('No videos in this timeline').waitFor();

      expect([...cara.problems, ...vic.problems, ...mona.problems]).toEqual([]);
      await cara.context.close();
      await vic.context.close();
      await mona.context.close();
    }, 240_000);
  }
});
