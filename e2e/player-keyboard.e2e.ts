import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { dismissInstallPrompt, eventually } from './support/watch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 30 items 5 and 6, phone and desktop: a whole timeline watched with the keyboard alone
 * (the buttons reached with Tab, each item announced as it comes, the focus kept in the player,
 * the keys), the system's media controls told what plays, and the place saved and offered back
 * in a second browser ("Resume at 0:0x"), then forgotten once the timeline is watched to its end;
 * under reduced motion nothing in the player is animated.
 */
describe('the player by keyboard, and resuming elsewhere', () => {
  let product: RunningProduct;
  let browser: Browser;
  let viewer: RegisteredAccount;
  let timelineId: string;
  const timelineTitle = 'Night train to Vienna';
  let titles: string[];

  beforeAll(async () => {
    product = await startProduct('e2eplayerkeys');
    browser = await launchBrowser();
    const creator = await registerThroughApi(product.baseUrl, newAccount('Agnes', 'Denes'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Walter', 'Ruttmann'));
    timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, timelineTitle, makeClip('platform.mp4', 20));
    for (const [name, seconds] of [['corridor.mp4', 12], ['arrival.mp4', 3]] as const) {
      const form = new FormData();
      form.append('video', new Blob([readFileSync(makeClip(name, seconds))], { type: 'video/mp4' }), name);
      const upload = await fetch(`${product.baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${creator.token}` }, body: form });
      expect(upload.status).toBe(201);
    }
    titles = await eventually(
      'three videos processed',
      async () => {
        const videos = await callApi<Array<{ status: string; title: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token });
        return videos.body.length === 3 && videos.body.every((video) => video.status === 'completed') ? videos.body.map((video) => video.title) : undefined;
      },
      120_000,
    );
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  const savedPlace = async () =>
    (await callApi<{ position: { itemId: string; seconds: number } | null }>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/watch-position`, { token: viewer.token })).body.position;

  /** The accessible name of what has the focus. */
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '');
  /** Tab until `name` has the focus; answers the names passed on the way. */
  const tabTo = async (page: Page, name: RegExp): Promise<string[]> => {
    const passed: string[] = [];
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      passed.push(now);
      if (name.test(now)) return passed;
    }
    throw new Error(`${name} never had the focus; passed ${passed.join(' | ')}`);
  };
  const announced = (page: Page) => page.getByTestId('player-announcer').textContent();
  const video = (page: Page) => page.evaluate(() => ({ time: document.querySelector('video')?.currentTime ?? -1, paused: document.querySelector('video')?.paused ?? true }));
  const focusInPlayer = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('[role="region"][aria-label$=": video player"]')));

  it.each(viewports.map((viewport) => [viewport.name, viewport] as const))('%s: a whole timeline by keyboard, resumed in a second browser', async (_name, viewport) => {
    await callApi(product.baseUrl, 'DELETE', `/api/timelines/${timelineId}/watch-position`, { token: viewer.token });
    const first = await newContext(browser, viewport, product.baseUrl);
    await dismissInstallPrompt(first.context);
    await signInWithToken(first.context, viewer.token);
    const page = await first.context.newPage();
    await page.goto(`/watch/${timelineId}`);
    const player = page.getByRole('region', { name: `${timelineTitle}: video player` });
    await player.waitFor().catch(async (error: unknown) => {
      throw new Error(`no player on ${page.url()}: ${(await page.evaluate(() => document.body.innerText)).slice(0, 500)}`, { cause: error });
    });
    expect(await player.getAttribute('aria-describedby')).toBeTruthy();
    await expect(page.locator(`[id="${await player.getAttribute('aria-describedby')}"]`).textContent()).resolves.toMatch(/^Keys: Left and Right arrows, previous and next item/);

    // Tab from the top: Back first, then on to Next video (on a phone too, shown while focused).
    const path = await tabTo(page, /^Next video$/);
    expect(path.indexOf('Back')).toBeGreaterThanOrEqual(0);
    expect(path.indexOf('Back')).toBeLessThan(path.indexOf(`Video 1 of 3: ${titles[0]}`));
    expect(await page.getByRole('button', { name: 'Next video' }).isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await eventually('the second item announced', async () => ((await announced(page)) === `Video 2 of 3: ${titles[1]}` ? true : undefined));
    await page.getByText('2 of 3', { exact: true }).waitFor();
    // The system's media controls say what plays.
    await eventually('media session metadata', async () => {
      const meta = await page.evaluate(() => (navigator.mediaSession.metadata ? { title: navigator.mediaSession.metadata.title, album: navigator.mediaSession.metadata.album } : null));
      return meta?.title === titles[1] ? meta : undefined;
    });
    expect(await page.evaluate(() => navigator.mediaSession.metadata?.album)).toBe(timelineTitle);
    // Picture in picture is offered exactly where the browser has it.
    const pip = await page.evaluate(() => document.pictureInPictureEnabled === true);
    await sleep(500);
    expect(await page.getByRole('button', { name: 'Picture in picture' }).count()).toBe(pip ? 1 : 0);

    // Some seconds into the second video, K pauses it and the place is saved.
    await page.evaluate(() => {
      const element = document.querySelector('video')!;
      element.muted = true;
      void element.play();
    });
    await eventually('the second video playing past 3 s', async () => ((await video(page)).time >= 3 ? true : undefined), 30_000);
    await page.keyboard.press('k');
    await eventually('paused by K', async () => ((await video(page)).paused ? true : undefined));
    const pausedAt = (await video(page)).time;
    // The pause saves the place, unless the save made while it played (every 10 s) is already
    // within a second of it, as it can be on a busy machine that polled the time late.
    const place = await eventually('the place saved where K paused', async () => {
      const now = await savedPlace();
      return now && now.seconds >= 3 && Math.abs(now.seconds - pausedAt) < 1.5 ? now : undefined;
    });
    // A second browser, reduced motion: the place is offered back, by keyboard.
    const second = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
    await dismissInstallPrompt(second);
    await signInWithToken(second, viewer.token);
    const other = await second.newPage();
    await other.goto(`/watch/${timelineId}`);
    const offer = `Resume at 0:${String(Math.floor(place.seconds)).padStart(2, '0')}`;
    await other.getByRole('button', { name: offer }).waitFor();
    const animated = await other.evaluate(() =>
      [...document.querySelectorAll('.player, .player *')].filter((element) => getComputedStyle(element).transitionDuration.split(',').some((d) => parseFloat(d) > 0)).map((element) => element.className),
    );
    expect(animated).toEqual([]);
    // The player with the offer on it: nothing serious or critical for axe-core.
    expect((await axeViolations(other)).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.summary)).toEqual([]);
    const way = await tabTo(other, new RegExp(`^${offer}$`));
    expect(way).not.toContain('Next video');
    await other.keyboard.press('Enter');
    await other.getByText('2 of 3', { exact: true }).waitFor();
    await eventually('the second video at the saved second', async () => {
      const at = (await video(other)).time;
      return at >= place.seconds - 0.5 && at < place.seconds + 4 ? at : undefined;
    });
    expect(await other.getByRole('button', { name: offer }).count()).toBe(0);
    expect(await focusInPlayer(other)).toBe(true);
    await second.close();

    // Back in the first browser: on to the last video with the arrow key; its end is the timeline's.
    const cleared = page.waitForResponse((response) => response.url().endsWith('/watch-position') && response.request().method() === 'DELETE', { timeout: 30_000 });
    await page.keyboard.press('ArrowRight');
    await eventually('the last item announced', async () => ((await announced(page)) === `Video 3 of 3: ${titles[2]}` ? true : undefined));
    // Next is disabled at the last item: the focus stays in the player, and the keys still work.
    expect(await page.getByRole('button', { name: 'Next video' }).isDisabled()).toBe(true);
    expect(await focusInPlayer(page)).toBe(true);
    await page.evaluate(() => {
      const element = document.querySelector('video')!;
      element.muted = true;
      void element.play();
    });
    expect((await cleared).status()).toBe(204);
    expect(await savedPlace()).toBeNull();
    await page.keyboard.press('ArrowLeft');
    await eventually('the second item announced again', async () => ((await announced(page)) === `Video 2 of 3: ${titles[1]}` ? true : undefined));
    // J and L: ten seconds back and on, within the video.
    await page.evaluate(() => {
      const element = document.querySelector('video')!;
      element.pause();
      element.currentTime = 4;
    });
    await page.keyboard.press('j');
    expect((await video(page)).time).toBe(0);
    await page.keyboard.press('l');
    expect((await video(page)).time).toBe(10);
    await first.context.close();
    expect(first.problems).toEqual([]);
  }, 180_000);
});
