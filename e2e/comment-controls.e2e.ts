import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, toast } from './support/screens.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';

/**
 * Issue 28, comment controls: a timeline's owner holds every comment for approval in the studio;
 * a follower's comment shows to them as "Waiting for approval" and to nobody else; approved in
 * the studio's queue, it appears to others. A timeline whose comments are turned off says so
 * where the comment field would be. Real Chromium, the real product, on a phone and a desktop.
 */
describe('comment controls journeys', () => {
  let product: RunningProduct;
  let browser: Browser;
  let clip: string;

  beforeAll(async () => {
    product = await startProduct('e2ecommentcontrols');
    browser = await launchBrowser();
    clip = makeClip('harbour.mp4', 2);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    const contexts: BrowserContext[] = [];
    const problems: string[] = [];
    afterAll(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
    });

    async function open(token: string): Promise<Page> {
      const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      contexts.push(context);
      watchPages(context, problems);
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      return context.newPage();
    }
    const feed = (page: Page) => page.getByRole('feed', { name: 'For you' });
    const timelineCard = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });
    /** The feed card of the timeline, its comments open (the feed is read again until it shows). */
    async function openComments(page: Page, title: string): Promise<Locator> {
      const card = timelineCard(page, title);
      await eventually(`the timeline '${title}' in the feed`, async () => {
        await page.goto('/');
        await feed(page).and(page.locator('[aria-busy="false"]')).waitFor();
        return (await card.count()) > 0 ? true : undefined;
      }, 30_000, 1_000);
      await card.getByRole('button', { name: /^Comments, / }).click();
      return card;
    }
    const studioControls = (page: Page) => page.getByRole('region', { name: 'Comment controls' });
    const people = async (tag: string) => ({
      owner: await registerThroughApi(product.baseUrl, newAccount('Olga', `Owner${tag}`)),
      fan: await registerThroughApi(product.baseUrl, newAccount('Fay', `Follower${tag}`)),
      other: await registerThroughApi(product.baseUrl, newAccount('Omar', `Other${tag}`)),
    });
    const listedTo = async (who: RegisteredAccount, timelineId: string) =>
      (await callApi<Array<{ content: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/comments`, { token: who.token })).body.map((c) => c.content);

    it('holds every comment: its author sees it waiting, the owner approves it in the studio queue, then everyone sees it', async () => {
      const tag = randomBytes(3).toString('hex');
      const { owner, fan, other } = await people(tag);
      const title = `Harbour at dusk ${tag}`;
      const timelineId = await publishedTimelineWithClip(product.baseUrl, owner.token, title, clip);
      const said = `Lovely light on the water ${tag}`;

      // The owner holds all comments, in the studio.
      const studio = await open(owner.token);
      await studio.goto(`/timeline/${timelineId}`);
      const controls = studioControls(studio);
      await controls.getByLabel('All comments').check();
      await button(controls, 'Save comment settings').click();
      await toast(studio, 'Comment settings saved').waitFor();
      await controls.getByText('No comments are waiting for approval.').waitFor();

      // A follower comments from the feed: they see it waiting; others do not see it at all.
      const fanPage = await open(fan.token);
      const card = await openComments(fanPage, title);
      await card.getByPlaceholder('Write a comment...').fill(said);
      await card.getByPlaceholder('Write a comment...').press('Enter');
      const mine = card.getByRole('listitem').filter({ hasText: said });
      await mine.getByText('Waiting for approval').waitFor();
      expect(await listedTo(other, timelineId)).not.toContain(said);
      await card.getByRole('button', { name: 'Comments, 0 comments' }).waitFor();

      // The owner's studio queue has it, with its count; Approve.
      await studio.reload();
      await studioControls(studio).getByRole('heading', { name: /Waiting for approval\s*1/ }).waitFor();
      await studioControls(studio).getByText(said).waitFor();
      await studioControls(studio).getByRole('button', { name: `Approve comment from ${fan.displayName}` }).click();
      await studioControls(studio).getByText('No comments are waiting for approval.').waitFor();

      // Someone else now sees it in the feed, not marked.
      const otherPage = await open(other.token);
      const otherCard = await openComments(otherPage, title);
      const shown = otherCard.getByRole('listitem').filter({ hasText: said });
      await shown.waitFor();
      expect(await shown.getByText('Waiting for approval').count()).toBe(0);
      expect(await listedTo(other, timelineId)).toContain(said);
      expect(problems).toEqual([]);
    }, 240_000);

    it('says why there is no comment field when comments are turned off', async () => {
      const tag = randomBytes(3).toString('hex');
      const { owner, other } = await people(tag);
      const title = `Quiet cove ${tag}`;
      const timelineId = await publishedTimelineWithClip(product.baseUrl, owner.token, title, clip);

      const studio = await open(owner.token);
      await studio.goto(`/timeline/${timelineId}`);
      const controls = studioControls(studio);
      await controls.getByRole('radio', { name: /^Nobody/ }).check();
      await button(controls, 'Save comment settings').click();
      await toast(studio, 'Comment settings saved').waitFor();

      const page = await open(other.token);
      const card = await openComments(page, title);
      await card.getByRole('note').filter({ hasText: 'Comments are turned off for this' }).waitFor();
      expect(await card.getByPlaceholder('Write a comment...').count()).toBe(0);
      // The server refuses all the same, with the reason.
      const refused = await callApi<{ message: string }>(product.baseUrl, 'POST', `/api/timelines/${timelineId}/comments`, { token: other.token, body: { content: 'let me in' } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Comments are turned off for this');
      expect(problems).toEqual([]);
    }, 240_000);
  });
});
