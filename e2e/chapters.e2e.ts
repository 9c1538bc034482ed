import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { toast } from './support/screens.js';
import { eventually } from './support/watch.js';

/** Uploads `clip` to the timeline through the API and waits until every video of it is processed. */
async function addClip(baseUrl: string, token: string, timelineId: string, clip: string): Promise<void> {
  const form = new FormData();
  form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), path.basename(clip));
  const upload = await fetch(`${baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (upload.status !== 201) throw new Error(`the upload answered ${upload.status}: ${await upload.text()}`);
  await eventually(
    'every clip processed',
    async () => {
      const videos = await callApi<Array<{ status: string }>>(baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token });
      if (videos.body.some((video) => video.status === 'error')) throw new Error('a clip failed to process');
      return videos.body.every((video) => video.status === 'completed') || undefined;
    },
    150_000,
  );
}

const position = (page: Page) => page.evaluate(() => document.querySelector('video')?.currentTime ?? -1);
const pause = (page: Page) => page.evaluate(() => document.querySelector('video')?.pause());

/**
 * Chapters and links into the player, phone and desktop: a link to the third item at its 42nd
 * second opens there; the Chapters panel and the timeline's scrubber jump between items; Share
 * offers "Start at current time"; a time written in a comment seeks the video; a link to an item
 * the timeline does not have starts from the beginning and says so.
 */
describe('chapters and deep links', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;
  let thirdId: string;

  beforeAll(async () => {
    product = await startProduct('e2echapters');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Chantal', 'Akerman'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Jacques', 'Rivette'));
    timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, 'Three walks', makeClip('morning.mp4', 3));
    await addClip(product.baseUrl, creator.token, timelineId, makeClip('noon.mp4', 3));
    await addClip(product.baseUrl, creator.token, timelineId, makeClip('evening.mp4', 50));
    const videos = await callApi<Array<{ id: string; title: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token });
    expect(videos.body.map((video) => video.title)).toEqual(['morning', 'noon', 'evening']);
    thirdId = videos.body[2]!.id;
    const comment = await callApi(product.baseUrl, 'POST', `/api/videos/${thirdId}/comments`, { token: viewer.token, body: { content: 'The light changes at 0:20, look' } });
    expect(comment.status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it.each(viewports.map((viewport) => [viewport.name, viewport] as const))('%s: a link opens item 3 at 0:42, chapters jump, share starts here, a comment time seeks', async (_name, viewport) => {
    const { context, problems } = await newContext(browser, viewport, product.baseUrl);
    await signInWithToken(context, viewer.token);
    const page = await context.newPage();

    // The link: the third item, at its 42nd second.
    await page.goto(`/watch/${timelineId}?item=3&t=42`);
    await page.getByText('3 of 3', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Video 3 of 3: evening' }).getAttribute('aria-current')).toBe('true');
    const opened = await eventually('the video at 0:42', async () => {
      const at = await position(page);
      return at >= 42 && at < 50 ? at : undefined;
    });
    expect(opened).toBeGreaterThanOrEqual(42);
    // Paused, the controls stay on screen.
    await pause(page);

    // Share: "Start at current time" puts the item and second in the link.
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Timeline' });
    const email = dialog.getByRole('link', { name: 'Email' });
    expect(decodeURIComponent((await email.getAttribute('href')) ?? '')).toContain(`/watch/${timelineId}`);
    expect(decodeURIComponent((await email.getAttribute('href')) ?? '')).not.toContain('item=');
    await dialog.getByRole('checkbox', { name: 'Start at current time' }).check();
    const shared = decodeURIComponent((await email.getAttribute('href')) ?? '');
    const link = /\/watch\/[^?\s]+\?item=3&t=(\d+)/.exec(shared);
    expect(link).not.toBeNull();
    expect(Number(link![1])).toBeGreaterThanOrEqual(42);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The Chapters panel: the timeline's items, each a button that jumps there.
    await page.getByRole('button', { name: 'Chapters' }).click();
    const chapters = page.getByRole('region', { name: 'Chapters' });
    const items = chapters.getByRole('button');
    expect(await items.allInnerTexts()).toEqual([expect.stringMatching(/^0:00[\s\S]*morning$/), expect.stringMatching(/^0:0[23][\s\S]*noon$/), expect.stringMatching(/^0:0[56][\s\S]*evening$/)]);
    expect(await chapters.getByRole('button', { name: /Video 3: evening/ }).getAttribute('aria-current')).toBe('true');
    // axe-core on the player with the Chapters panel open.
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.summary)).toEqual([]);
    await chapters.getByRole('button', { name: /Video 1: morning/ }).click();
    await page.getByText('1 of 3', { exact: true }).waitFor();
    await chapters.waitFor({ state: 'detached' });
    await eventually('the first video from its start', async () => {
      const at = await position(page);
      return at >= 0 && at < 2.5 ? at : undefined;
    });

    // The scrubber over the whole timeline, by keyboard: End is the last item's end, Home the start.
    await pause(page);
    const scrubber = page.getByRole('slider', { name: 'Timeline position' });
    await scrubber.focus();
    await scrubber.press('End');
    await page.getByText('3 of 3', { exact: true }).waitFor();
    await eventually('the third video near its end', async () => {
      const at = await position(page);
      return at > 45 ? at : undefined;
    });
    expect(await scrubber.getAttribute('aria-valuetext')).toMatch(/^Video 3 of 3: evening, 0:[45]\d$/);
    await pause(page);
    await scrubber.press('Home');
    await page.getByText('1 of 3', { exact: true }).waitFor();

    // A time written in a comment seeks the video it is about.
    await page.goto(`/watch/${timelineId}?item=3`);
    await page.getByText('3 of 3', { exact: true }).waitFor();
    await pause(page);
    await page.getByRole('button', { name: /^Comments, 1$/ }).click();
    const comments = page.getByRole('dialog', { name: 'Comments' });
    await comments.getByRole('button', { name: 'Play from 0:20' }).click();
    await comments.waitFor({ state: 'detached' });
    await eventually('the video at 0:20', async () => {
      const at = await position(page);
      return at >= 20 && at < 30 ? at : undefined;
    });

    // A link to an item the timeline does not have: the beginning, and a word about it.
    await page.goto(`/watch/${timelineId}?item=9&t=42`);
    await page.getByText('1 of 3', { exact: true }).waitFor();
    await toast(page, 'That part of the timeline is not here').waitFor();
    expect(await position(page)).toBeLessThan(5);

    await context.close();
    expect(problems).toEqual([]);
  }, 240_000);
});
