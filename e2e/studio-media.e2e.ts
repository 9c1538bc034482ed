import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { FAKE_CAMERA, launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

interface VideoRow {
  id: string;
  title: string;
  originalName: string;
  status: string;
  uploadedAt: string;
}

function makeClip(name: string, size: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-studio-'));
  const file = path.join(dir, name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
  return file;
}

/** The titles in Video Management's manual order, top to bottom, as shown. */
const shownOrder = (page: Page): Promise<string[]> =>
  page.getByRole('list', { name: 'Videos in manual order' }).locator('.video-row__title').allTextContents();

type Point = { x: number; y: number };
type Drag = (page: Page, from: Point, to: Point) => Promise<void>;

/** A mouse: press, move past the 5 px activation distance, glide over, release. */
const mouseDrag: Drag = async (page, from, to) => {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x, from.y + 10, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
};

/**
 * A finger, through the same input pipeline a touchscreen feeds (CDP Input.dispatchTouchEvent,
 * so the page gets trusted touch and pointer events): a long press past the touch sensor's 200 ms,
 * then slide and lift. The pointer sensor also answers touch pointers (5 px), so a swipe without
 * the press drags as well; the press is how a phone user picks a row up either way.
 */
const touchDrag: Drag = async (page, from, to) => {
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at?: Point) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ x: at.x, y: at.y, id: 1 }] : [] });
  await touch('touchStart', from);
  await page.waitForTimeout(350);
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await touch('touchMove', { x: from.x, y: from.y + ((to.y - from.y) * i) / steps });
    await page.waitForTimeout(16);
  }
  await touch('touchEnd');
  await cdp.detach();
};

/** Drags the row titled `title` by its handle onto the row titled `onto`, then waits for the drop to settle. */
async function dragRow(page: Page, title: string, onto: string, drag: Drag): Promise<void> {
  const list = page.getByRole('list', { name: 'Videos in manual order' });
  const handle = page.getByRole('button', { name: `Reorder ${title}` });
  await handle.waitFor();
  await list.scrollIntoViewIfNeeded();
  const row = (name: string) => list.locator('li').filter({ has: page.getByRole('button', { name: `Reorder ${name}` }) });
  const grip = (await handle.boundingBox())!;
  const from = (await row(title).boundingBox())!;
  const over = (await row(onto).boundingBox())!;
  const start = { x: grip.x + grip.width / 2, y: grip.y + grip.height / 2 };
  // The grabbed row's centre lands just past the target's centre, on the side it moves towards.
  const shift = over.y + over.height / 2 - (from.y + from.height / 2) + (from.y < over.y ? 8 : -8);
  await drag(page, start, { x: start.x, y: start.y + shift });
  await page.waitForFunction(() => !document.querySelector('.video-list__item.is-dragging'));
}

/**
 * Spec 001 sections 2 and 3 on a phone, with Chromium's test camera: record a clip in the Add
 * Videos sheet, upload a batch with previews, then manage the videos (rename with Enter and
 * Escape, apply an order, drag rows with a mouse and a finger, delete with the confirmation).
 */
describe('studio media tools', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2estudio');
    browser = await launchBrowser(FAKE_CAMERA);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it('records in the Add Videos sheet, uploads a batch with previews, renames, orders (Apply Order, mouse and touch drags) and deletes', async () => {
    const owner = await registerThroughApi(product.baseUrl, newAccount('Chantal', 'Akerman'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title: 'Kitchen table' } });
    const timelineId = created.body.id;
    const videos = async () => (await callApi<VideoRow[]>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token })).body;
    const until = async (what: string, check: (rows: VideoRow[]) => boolean) => {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const rows = await videos();
        if (check(rows)) return rows;
        if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(rows.map((r) => [r.originalName, r.status, r.title]))}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };

    const { context, problems } = await newContext(browser, viewports[0]!, product.baseUrl);
    await context.grantPermissions(['camera', 'microphone']);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByRole('heading', { name: 'Kitchen table', level: 1 }).waitFor();

    // Record: MediaRecorder over the test camera, a webm named by its time.
    await page.getByRole('button', { name: 'Record or take a video' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add Videos' });
    await sheet.getByRole('button', { name: 'Record', exact: true }).click();
    await sheet.getByLabel('Camera preview').waitFor();
    await page.waitForTimeout(2500);
    await sheet.getByRole('button', { name: 'Stop Recording' }).click();
    await sheet.getByRole('list', { name: 'Uploads' }).getByText(/^recording-.*\.webm$/).waitFor();
    await page.getByText('Video added to timeline successfully.').first().waitFor({ timeout: 30_000 });
    // The sheet asks for the recording's description before it closes (e2e/alt-text.e2e.ts).
    await sheet.getByRole('region', { name: 'Alt text for your uploads' }).getByRole('button', { name: 'Add later' }).click();
    await sheet.waitFor({ state: 'detached', timeout: 15_000 });

    // Batch: two files, each with a 160x90 preview; Start Upload; then Clear Completed.
    await page.getByRole('tab', { name: 'Batch Upload' }).click();
    const clips = [makeClip('breakfast.mp4', '640x360'), makeClip('dinner.mp4', '480x270')];
    await page.getByLabel('Select video files').setInputFiles(clips);
    const batch = page.getByRole('list', { name: 'Batch upload queue' });
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Batch upload queue"] img.upload-row__preview').length === 2, undefined, { timeout: 15_000 });
    const preview = await batch.locator('img.upload-row__preview').first().evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(preview).toEqual([160, 90]);
    await page.getByRole('button', { name: 'Start Upload' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Batch upload queue"] .upload-row--completed').length === 2, undefined, { timeout: 90_000 });
    await page.getByRole('button', { name: 'Clear Completed' }).click();
    await batch.waitFor({ state: 'detached' });

    const all = await until('three completed videos', (rows) => rows.length === 3 && rows.every((r) => r.status === 'completed'));
    expect(all.map((r) => r.originalName).sort()).toEqual(['breakfast.mp4', 'dinner.mp4', expect.stringMatching(/^recording-.*\.webm$/)]);

    // Rename: Enter saves, Escape leaves the title as it was.
    const recording = all.find((r) => r.originalName.endsWith('.webm'))!;
    await page.reload();
    await page.getByRole('button', { name: `Rename ${recording.title}` }).click();
    await page.getByRole('textbox', { name: 'Video title' }).fill('  Tea at the table  ');
    await page.keyboard.press('Enter');
    await until('renamed', (rows) => rows.some((r) => r.id === recording.id && r.title === 'Tea at the table'));
    const dinner = all.find((r) => r.originalName === 'dinner.mp4')!;
    await page.getByRole('button', { name: `Rename ${dinner.title}` }).click();
    await page.getByRole('textbox', { name: 'Video title' }).fill('Never saved');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Rename ${dinner.title}` }).waitFor();
    expect((await videos()).find((r) => r.id === dinner.id)!.title).toBe(dinner.title);

    // Order: scrambled through the API, then Upload Time + Apply Order puts it back for good.
    const byUpload = [...all].sort((a, b) => a.uploadedAt.localeCompare(b.uploadedAt)).map((r) => r.id);
    await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/videos/reorder`, { token: owner.token, body: { videoIds: [...byUpload].reverse() } });
    await page.reload();
    await page.getByLabel('Sort by').selectOption({ label: 'Upload Time' });
    await page.getByRole('button', { name: 'Apply Order' }).click();
    await until('applied upload order', (rows) => rows.map((r) => r.id).join() === byUpload.join());

    // Drag by the handle in manual order, with a mouse on a desktop and a long press on the phone;
    // a drop saves the order at once (Apply Order belongs to the time orders).
    const titles = new Map((await videos()).map((r) => [r.id, r.title]));
    const titlesOf = (ids: string[]) => ids.map((id) => titles.get(id)!);
    const [first, second, third] = byUpload as [string, string, string];
    const desktop = await newContext(browser, viewports[1]!, product.baseUrl);
    await signInWithToken(desktop.context, owner.token);
    const wide = await desktop.context.newPage();
    await wide.goto(`/timeline/${timelineId}?tab=upload`);
    /** Drags one row onto another, then sees the new order in the API, on screen and after a reload. */
    const dragAndSee = async (on: Page, moved: string, onto: string, drag: typeof mouseDrag, order: string[], how: string) => {
      await dragRow(on, titles.get(moved)!, titles.get(onto)!, drag);
      // The API first: the list shows the new order once the drop's optimistic update has run,
      // which on a loaded machine can be a moment after the drag ends.
      await until(`order saved after a ${how}`, (rows) => rows.map((r) => r.id).join() === order.join());
      expect(await shownOrder(on)).toEqual(titlesOf(order));
      await on.reload();
      await on.getByRole('button', { name: `Reorder ${titles.get(moved)!}` }).waitFor();
      expect(await shownOrder(on)).toEqual(titlesOf(order));
    };
    await dragAndSee(wide, first, third, mouseDrag, [second, third, first], 'mouse drag');
    expect(desktop.problems).toEqual([]);
    await desktop.context.close();

    await page.reload();
    await dragAndSee(page, first, second, touchDrag, [first, second, third], 'touch drag');

    // Delete, after the confirmation.
    await page.getByRole('button', { name: 'Delete Tea at the table' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete video?' }).or(page.getByRole('dialog', { name: 'Delete video?' }));
    await confirm.getByText(`Are you sure you want to delete "${recording.originalName}"? This action cannot be undone.`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await until('deleted', (rows) => rows.length === 2 && !rows.some((r) => r.id === recording.id));

    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
