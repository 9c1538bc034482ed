import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';
import { button, heading, pathOf } from './support/screens.js';

/** A four-second 640x360 H.264 clip made by ffmpeg. */
function makeClip(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-collections-'));
  const clip = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '4', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
  return clip;
}

interface Made {
  id: string;
  title: string;
}

/**
 * Spec 001 "Collections" and issue 11's web app: a viewer makes a collection, saves one timeline
 * into it from the feed card's menu and another from the player, reorders them by keyboard drag,
 * removes one and deletes the collection; every step is checked against the API too. Real
 * Chromium, the real product, on a phone and on a desktop.
 */
describe('collections journey', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  /** Both public and published: the first has no video (feed only), the second plays. */
  let inFeed: Made;
  let playable: Made;

  beforeAll(async () => {
    const clip = makeClip();
    product = await startProduct('e2ecollections');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Cara', 'Creator'));
    const tag = randomBytes(3).toString('hex');
    const make = async (title: string): Promise<Made> => {
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: creator.token, body: { title, visibility: 'public' } });
      expect(created.status).toBe(201);
      return { id: created.body.id, title };
    };
    inFeed = await make(`Harbour week ${tag}`);
    playable = await make(`Lighthouse walk ${tag}`);
    const form = new FormData();
    form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
    const uploaded = await fetch(`${product.baseUrl}/api/timelines/${playable.id}/videos`, { method: 'POST', headers: { authorization: `Bearer ${creator.token}` }, body: form });
    expect(uploaded.status).toBeLessThan(300);
    await uploaded.arrayBuffer();
    await eventually('the video to be processed', async () => {
      const videos = await callApi<Array<{ status: string; hlsUrl: string | null }>>(product.baseUrl, 'GET', `/api/timelines/${playable.id}/videos`, { token: creator.token });
      return videos.body.some((video) => video.status === 'completed' && video.hlsUrl) ? true : undefined;
    }, 60_000, 500);
    for (const timeline of [inFeed, playable]) {
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${timeline.id}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    let context: BrowserContext | undefined;
    const problems: string[] = [];

    afterAll(async () => {
      await context?.close().catch(() => undefined);
    });

    async function open(token: string): Promise<Page> {
      context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      watchPages(context, problems);
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      return context.newPage();
    }

    const timelinesOf = async (token: string, collectionId: string) =>
      (await callApi<Array<{ id: string }>>(product.baseUrl, 'GET', `/api/collections/${collectionId}/timelines`, { token })).body.map((item) => item.id);
    const listed = (page: Page) => page.getByRole('list', { name: 'Timelines in this collection' });
    const listedTitles = async (page: Page) =>
      (await listed(page).locator('.collection-timeline__title').allTextContents()).map((title) => title.trim());

    async function pickInSheet(page: Page, name: string): Promise<Locator> {
      const sheet = page.getByRole('dialog', { name: 'Save to collection' });
      const box = sheet.getByRole('checkbox', { name: new RegExp(`^${name}`) });
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      await box.check();
      expect(await box.isChecked()).toBe(true);
      return sheet;
    }

    it('makes a collection, saves from the feed card and the player, reorders, removes and deletes', async () => {
      const tag = randomBytes(3).toString('hex');
      const viewer = await registerThroughApi(product.baseUrl, newAccount('Vic', 'Viewer'));
      const name = `Trip ideas ${tag}`;
      const page = await open(viewer.token);

      // An empty 'My Collections'; make one (the name is trimmed).
      await page.goto('/collections');
      await heading(page, 'My Collections').waitFor();
      await heading(page, 'No collections yet').waitFor();
      await button(page, 'Create Your First Collection').click();
      const dialog = page.getByRole('dialog', { name: 'New Collection' });
      await dialog.getByLabel('Name').fill(`  ${name}  `);
      await dialog.getByLabel('Description').fill('Places to see next summer');
      await button(dialog, 'Create Collection').click();
      await dialog.waitFor({ state: 'detached' });
      const card = page.getByRole('list', { name: 'Your collections' }).getByRole('link', { name: new RegExp(name) });
      await card.waitFor();
      const mine = await callApi<Array<{ id: string; name: string; description: string | null; isPublic: boolean }>>(product.baseUrl, 'GET', '/api/collections', { token: viewer.token });
      expect(mine.body.map(({ name: n, description, isPublic }) => ({ n, description, isPublic }))).toEqual([{ n: name, description: 'Places to see next summer', isPublic: true }]);
      const collectionId = mine.body[0]!.id;

      // From the feed card's options menu.
      await page.goto('/');
      const feedCard = page.getByRole('feed', { name: 'For you' }).getByRole('article', { name: inFeed.title, exact: true });
      await feedCard.waitFor();
      await feedCard.getByRole('button', { name: `Options for ${inFeed.title}` }).click();
      if (viewport.name === 'phone') {
        await button(page.getByRole('dialog', { name: 'Timeline Options' }), 'Save to collection').click();
      } else {
        await page.getByRole('menuitem', { name: 'Save to collection' }).click();
      }
      let sheet = await pickInSheet(page, name);
      await eventually('the feed timeline in the collection', async () => ((await timelinesOf(viewer.token, collectionId)).includes(inFeed.id) ? true : undefined));
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      // From the player's top bar (focus shows the controls even when they have faded).
      await page.goto(`/watch/${playable.id}`);
      await heading(page, playable.title).waitFor();
      const save = button(page, 'Save to collection');
      await save.focus();
      await save.press('Enter');
      sheet = await pickInSheet(page, name);
      await eventually('the played timeline in the collection', async () =>
        JSON.stringify(await timelinesOf(viewer.token, collectionId)) === JSON.stringify([inFeed.id, playable.id]) ? true : undefined,
      );
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      // The collection page, in the order saved; a keyboard drag puts the second first.
      await page.goto('/collections');
      await card.click();
      await page.waitForURL(`**/collections/${collectionId}`);
      await heading(page, name).waitFor();
      await listed(page).waitFor();
      expect(await listedTitles(page)).toEqual([inFeed.title, playable.title]);
      const handle = button(page, `Reorder ${playable.title}`);
      await handle.focus();
      // Each step waits for what the screen reader is told (dnd-kit's live region).
      await page.keyboard.press('Space');
      await handle.and(page.locator('[aria-pressed="true"]')).waitFor();
      // As someone listening would: an arrow, and another if the first was not announced (a press
      // right after the pick-up may come before the list's places are measured).
      const over = page.getByText(`${playable.title} is over position 1 of 2.`);
      for (let tries = 0; tries < 3 && !(await over.count()); tries++) {
        await page.keyboard.press('ArrowUp');
        await over.waitFor({ state: 'attached', timeout: 3_000 }).catch(() => undefined);
      }
      await over.waitFor({ state: 'attached' });
      await page.keyboard.press('Space');
      await page.getByText(`${playable.title} dropped at position 1 of 2.`).waitFor({ state: 'attached' });
      await eventually('the new order to be saved', async () =>
        JSON.stringify(await timelinesOf(viewer.token, collectionId)) === JSON.stringify([playable.id, inFeed.id]) ? true : undefined,
      );
      expect(await listedTitles(page)).toEqual([playable.title, inFeed.title]);
      await page.reload();
      await listed(page).waitFor();
      expect(await listedTitles(page)).toEqual([playable.title, inFeed.title]);

      // Remove one; it is gone from the page and the server.
      await button(page, `Remove ${inFeed.title} from this collection`).click();
      await eventually('the removal', async () => ((await listedTitles(page)).length === 1 ? true : undefined));
      expect(await listedTitles(page)).toEqual([playable.title]);
      await eventually('the removal to be saved', async () =>
        JSON.stringify(await timelinesOf(viewer.token, collectionId)) === JSON.stringify([playable.id]) ? true : undefined,
      );

      // Delete the collection, after confirming.
      await button(page, 'Delete').click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this collection?' });
      await button(confirm, 'Delete').click();
      await page.waitForURL('**/collections');
      await heading(page, 'No collections yet').waitFor();
      expect(pathOf(page)).toBe('/collections');
      expect((await callApi<unknown[]>(product.baseUrl, 'GET', '/api/collections', { token: viewer.token })).body).toEqual([]);

      expect(problems).toEqual([]);
    }, 120_000);
  });
});
