import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

interface Item {
  id: string;
  title: string;
  mediaType: 'video' | 'image';
  status: string;
}

/** A still (JPEG) and a two-second clip, made by ffmpeg. */
function makeFiles(): { still: string; clip: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-images-'));
  const still = path.join(dir, 'Lighthouse.jpg');
  const clip = path.join(dir, 'Harbour.mp4');
  const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360', '-frames:v', '1', still]);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
  return { still, clip };
}

/**
 * Issue 15, "uploaded images disappear": an image uploaded from the studio shows in Video
 * Management with its picture, and in the watch player as a slide among the videos ("1 of 2"),
 * for five seconds before the video, without the video-only controls.
 */
describe('images in the studio and the player', () => {
  let product: RunningProduct;
  let browser: Browser;
  let files: { still: string; clip: string };

  beforeAll(async () => {
    files = makeFiles();
    product = await startProduct('e2eimages');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it('uploads an image and a video, then sees the image in management and in the player', async () => {
    const owner = await registerThroughApi(product.baseUrl, newAccount('Berenice', 'Abbott'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title: 'Coast stills' } });
    const timelineId = created.body.id;

    const { context, problems } = await newContext(browser, viewports[1]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByRole('heading', { name: 'Coast stills', level: 1 }).waitFor();

    // The image first, then the clip, so the timeline's order is known.
    const upload = page.getByLabel('Choose videos or images to upload');
    const queue = page.getByRole('list', { name: 'Upload queue' });
    await upload.setInputFiles([files.still]);
    await queue.getByText('Image ready!').waitFor({ timeout: 60_000 });
    await upload.setInputFiles([files.clip]);
    await queue.getByText('Video ready!').waitFor({ timeout: 90_000 });

    const items = (await callApi<Item[]>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos?include=images`, { token: owner.token })).body;
    expect(items.map((item) => [item.mediaType, item.status])).toEqual([['image', 'completed'], ['video', 'completed']]);
    const [still, clip] = items as [Item, Item];

    // Video Management: both, in order, the image with its own picture.
    await page.reload();
    const list = page.getByRole('list', { name: 'Videos in manual order' });
    await list.waitFor();
    expect(await list.locator('.video-row__title').allTextContents()).toEqual([still.title, clip.title]);
    const imageRow = list.locator('li').filter({ hasText: still.title });
    await imageRow.getByText('Image', { exact: true }).waitFor();
    await page.waitForFunction(
      (title) => {
        const row = Array.from(document.querySelectorAll('.video-list__item')).find((li) => li.textContent?.includes(title));
        const img = row?.querySelector<HTMLImageElement>('img.video-thumb');
        return !!img && img.complete && img.naturalWidth > 0;
      },
      still.title,
      { timeout: 15_000 },
    );
    await imageRow.getByRole('button', { name: `Reorder ${still.title}` }).waitFor();
    await imageRow.getByRole('button', { name: `Delete ${still.title}` }).waitFor();

    // The player: the image as slide 1 of 2, fitted, without the video controls or likes.
    await page.goto(`/watch/${timelineId}`);
    await page.getByText('1 of 2', { exact: true }).waitFor();
    const slide = page.getByRole('img', { name: still.title });
    await slide.waitFor();
    await page.waitForFunction((title) => {
      const img = document.querySelector<HTMLImageElement>(`img.player__image[alt="${title}"]`);
      return !!img && img.complete && img.naturalWidth === 640 && getComputedStyle(img).objectFit === 'contain';
    }, still.title);
    expect(await page.locator('video').count()).toBe(0);
    expect(await page.getByLabel('Video quality').count()).toBe(0);
    expect(await page.getByRole('slider', { name: 'Seek' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Like this video/ }).count()).toBe(0);
    await page.getByRole('progressbar', { name: 'Time on this image' }).waitFor();

    // Five seconds on, the video plays, as after a video that ended; likes are back.
    await page.getByText('2 of 2', { exact: true }).waitFor({ timeout: 10_000 });
    await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return !!v && v.readyState >= 2 && v.videoWidth > 0;
    }, undefined, { timeout: 30_000 });
    await page.getByRole('button', { name: /Like this video/ }).waitFor();

    // Back to the image with the arrow key.
    await page.getByRole('button', { name: 'Download timeline' }).press('ArrowLeft');
    await page.getByText('1 of 2', { exact: true }).waitFor();
    await slide.waitFor();

    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
