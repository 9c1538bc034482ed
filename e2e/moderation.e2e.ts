import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, newContext } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading } from './support/screens.js';
import { eventually } from './support/watch.js';

const root = path.resolve(import.meta.dirname, '..');
const notification = (page: Page, text: string): Locator => page.getByTestId('notification').filter({ hasText: text });

/**
 * Issue 28, the moderation desk: a report, a moderator (made one by the operator's command) hides
 * the item from /moderation and still sees it in context, marked; the reporter and the author are
 * told; the author appeals; a reported timeline hidden from the desk is opened from its link, in
 * the player under the desk's note, its comments read but none written; a suspended person is
 * signed out and told why when signing in again;
 * /moderation is Page Not Found to everyone else. Real Chromium, the real product, on a 390 px
 * phone and a 1366 px desktop.
 */
describe('moderation desk', () => {
  let db: TestDatabase;
  let product: RunningProduct;
  let browser: Browser;
  let clip: string;

  beforeAll(async () => {
    db = await createTestDatabase('e2emoderation');
    product = await startProduct('e2emoderation', { DATABASE_URL: db.url });
    browser = await launchBrowser();
    clip = makeClip('night-shift.mp4', 2);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await db?.drop();
  }, 60_000);

  for (const viewport of journeyViewports) {
    it(`report, hide, both told, appeal, suspend (${viewport.name})`, async () => {
      const register = (first: string, last: string): Promise<RegisteredAccount> => registerThroughApi(product.baseUrl, newAccount(first, last));
      const [author, reporter, moderator] = [await register('Arlo', 'Author'), await register('Rita', 'Reporter'), await register('Mona', 'Moderator')];
      // The operator's command, as in a container: DATABASE_URL as the services have it.
      const granted = await promisify(execFile)(process.execPath, [path.join(root, 'scripts/admin.mjs'), 'grant', moderator.username, 'moderator'], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: db.url, LOG_LEVEL: 'silent' } });
      expect(granted.stdout).toContain(`${moderator.username} is now a moderator`);

      const text = `Buy followers cheap at example.com (${viewport.name})`;
      const posted = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: author.token, body: { content: text } });
      expect(posted.status).toBe(201);
      const report = await callApi(product.baseUrl, 'POST', '/api/reports', { token: reporter.token, body: { contentType: 'post', contentId: posted.body.id, reason: 'spam', description: 'Selling followers' } });
      expect(report.status).toBe(201);
      // A timeline of the author's, with a comment on its video, reported too.
      const trip = `Night shift (${viewport.name})`;
      const timelineId = await publishedTimelineWithClip(product.baseUrl, author.token, trip, clip);
      const [video] = (await callApi<Array<{ id: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: author.token })).body;
      expect((await callApi(product.baseUrl, 'POST', `/api/videos/${video!.id}/comments`, { token: reporter.token, body: { content: 'Is this allowed here?' } })).status).toBe(201);
      expect((await callApi(product.baseUrl, 'POST', '/api/reports', { token: reporter.token, body: { contentType: 'timeline', contentId: timelineId, reason: 'spam' } })).status).toBe(201);

      const open = async (person: RegisteredAccount) => {
        const { context, problems } = await newContext(browser, viewport, product.baseUrl);
        context.setDefaultTimeout(20_000);
        await signInWithToken(context, person.token);
        return { context, problems, page: await context.newPage() };
      };

      // Not a moderator: the desk does not exist for them.
      const rita = await open(reporter);
      await rita.page.goto('/moderation');
      await heading(rita.page, 'Page Not Found').waitFor();

      // The moderator: the item in the queue, with who reported it and why; hidden with a reason.
      const mona = await open(moderator);
      await mona.page.goto('/moderation');
      await heading(mona.page, 'Moderation').waitFor();
      const card = mona.page.getByRole('listitem', { name: 'Post reported by 1' }).filter({ hasText: text });
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain('Selling followers');
      await expect(card.textContent()).resolves.toContain('spam ×1');
      await button(card, 'Hide').click();
      await card.getByText('Please give a reason').waitFor();
      await card.getByLabel('Reason').fill('Spam links');
      await button(card, 'Hide').click();
      // Decided: the item leaves the queue (and a toast says so).
      await card.waitFor({ state: 'detached' });
      await mona.page.getByRole('listitem').filter({ hasText: `hide (post) about @${author.username} — Spam links` }).waitFor();

      // Gone for everyone.
      expect((await callApi(product.baseUrl, 'GET', `/api/posts/${posted.body.id}`, { token: reporter.token })).status).toBe(404);
      // But the moderator, who still sees it in context, read-only, under a banner, and goes back to the desk.
      await mona.page.goto(`/post/${posted.body.id}`);
      const banner = mona.page.getByRole('note').filter({ hasText: 'Hidden by moderators. Reason: Spam links.' });
      await banner.waitFor();
      await mona.page.getByText(text).waitFor();
      await banner.getByRole('link', { name: 'Back to the moderation desk' }).click();
      await heading(mona.page, 'Moderation').waitFor();

      // The reporter is told the outcome, without the moderator's name.
      await rita.page.goto('/notifications');
      const told = notification(rita.page, 'Moderators removed the post you reported. Thank you for reporting it');
      await told.waitFor();
      await expect(told.textContent()).resolves.not.toContain('Mona');

      // The author is told what and why, and appeals once.
      const arlo = await open(author);
      await arlo.page.goto('/notifications');
      const authorTold = notification(arlo.page, 'Removed by moderators: your post. Reason: Spam links. You may appeal once');
      await authorTold.waitFor();
      await authorTold.click();
      await arlo.page.waitForURL('**/moderation/notices');
      await arlo.page.getByText('Removed by moderators: your post').waitFor();
      await button(arlo.page, 'Appeal').click();
      await arlo.page.getByLabel('Why should moderators look again?').fill('It was a joke among friends');
      await button(arlo.page, 'Send appeal').click();
      await arlo.page.getByRole('status').filter({ hasText: 'Appeal sent: moderators will look again' }).waitFor();
      await mona.page.reload();
      await mona.page.getByRole('listitem', { name: `Appeal by ${author.username}` }).filter({ hasText: 'It was a joke among friends' }).waitFor();

      // The reported timeline, hidden from the desk, then opened from the desk's link: in the player
      // under the note, its video's comments read, nothing to like or write; and back to the desk.
      const timelineCard = mona.page.getByRole('listitem', { name: 'Timeline reported by 1' }).filter({ hasText: trip });
      const inContext = await timelineCard.getByRole('link', { name: 'Open in context' }).getAttribute('href');
      expect(inContext).toBe(`/watch/${timelineId}`);
      await timelineCard.getByLabel('Reason').fill('Spam links');
      await button(timelineCard, 'Hide').click();
      await timelineCard.waitFor({ state: 'detached' });
      // The timelines service applies the decision from its event.
      await eventually('the timeline hidden', async () => (await callApi(product.baseUrl, 'GET', `/api/timelines/${timelineId}`, { token: reporter.token })).status === 404 || undefined);
      expect((await callApi(product.baseUrl, 'GET', `/api/videos/${video!.id}/comments`, { token: reporter.token })).status).toBe(404);
      await mona.page.goto(inContext!);
      const note = mona.page.getByRole('note').filter({ hasText: 'Hidden by moderators.' });
      await note.waitFor();
      await mona.page.getByRole('region', { name: `${trip}: video player` }).hover();
      await mona.page.getByRole('button', { name: /^Comments, / }).click();
      const comments = mona.page.getByRole('dialog', { name: 'Comments' });
      await comments.getByText('Is this allowed here?').waitFor();
      expect(await comments.getByRole('button', { name: 'Send comment' }).count()).toBe(0);
      expect(await mona.page.getByRole('button', { name: /^(Like|Unlike) this video/ }).count()).toBe(0);
      expect(await mona.page.getByText('Removed by moderators').count()).toBe(0);
      await mona.page.keyboard.press('Escape');
      await comments.waitFor({ state: 'detached' });
      await note.getByRole('link', { name: 'Back to the moderation desk' }).click();
      await heading(mona.page, 'Moderation').waitFor();

      // Suspended for a week: signed out at once, and told why and until when on signing in.
      const suspended = await callApi<{ until: string }>(product.baseUrl, 'POST', `/api/moderation/users/${author.id}/suspension`, { token: moderator.token, body: { reason: 'Repeated spam', days: 7 } });
      expect(suspended.status).toBe(201);
      const until = new Date(suspended.body.until).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
      // The auth service ends the sessions when it applies the suspension's event: wait for that
      // (it takes milliseconds, more on a busy machine) before the page asks again.
      const revokedBy = Date.now() + 15_000;
      while ((await callApi(product.baseUrl, 'GET', '/api/auth/me', { token: author.token })).status !== 401) {
        if (Date.now() > revokedBy) throw new Error('the suspended author’s session still works after 15 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      await arlo.page.reload();
      await heading(arlo.page, 'Welcome Back').waitFor();
      await arlo.page.getByLabel('Email or Username').fill(author.username);
      await arlo.page.getByLabel('Password').fill(author.password);
      await arlo.page.getByRole('button', { name: 'Sign In' }).click();
      await arlo.page.getByText(`Your account is suspended until ${until}. Reason: Repeated spam`).waitFor();

      expect([...rita.problems, ...mona.problems, ...arlo.problems]).toEqual([]);
      await rita.context.close();
      await mona.context.close();
      await arlo.context.close();
    }, 240_000);
  }
});
