import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

/**
 * Two short real clips made by ffmpeg: a landscape one with sound and a portrait one without; and
 * a large one (about 65 MB: six seconds of losslessly coded noise) to interrupt.
 */
function makeClips(): { landscape: string; portrait: string; large: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-clips-'));
  const landscape = path.join(dir, 'harbour-walk.mp4');
  const portrait = path.join(dir, 'street-portrait.mp4');
  const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=330', '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', landscape]);
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=25', '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', portrait]);
  const large = path.join(dir, 'long-take.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25,noise=alls=60:allf=t', '-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', large]);
  return { landscape, portrait, large };
}

/**
 * Spec 001 sections 2 and 4 (media upload area, Video Management, watch player): upload clips from
 * the studio on a phone, follow the real progress to 'Video ready!', then play in /watch and swipe.
 */
describe('media journey', () => {
  let product: RunningProduct;
  let browser: Browser;
  let clips: { landscape: string; portrait: string; large: string };

  beforeAll(async () => {
    clips = makeClips();
    product = await startProduct('e2emedia');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('uploads two clips from the studio on a phone, sees them become ready, plays and swipes', async () => {
    const owner = await registerThroughApi(product.baseUrl, newAccount('Maya', 'Deren'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title: 'Harbour days' } });
    const timelineId = created.body.id;

    const { context, problems } = await newContext(browser, viewports[0]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByRole('heading', { name: 'Harbour days', level: 1 }).waitFor();

    await page.getByLabel('Choose videos or images to upload').setInputFiles([clips.landscape, clips.portrait]);
    const queue = page.getByRole('list', { name: 'Upload queue' });
    await queue.getByText('Video ready!').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Upload queue"] li').length === 2);
    await page.getByRole('list', { name: 'Upload queue' }).getByText('Video ready!').nth(1).waitFor({ timeout: 60_000 });

    const videos = await callApi<Array<{ status: string; hlsUrl: string | null; metadata: { width: number; height: number } }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token });
    expect(videos.body.map((v) => v.status)).toEqual(['completed', 'completed']);
    expect(videos.body.every((v) => v.hlsUrl)).toBe(true);
    const timeline = await callApi<{ videoCount: number; duration: number }>(product.baseUrl, 'GET', `/api/timelines/${timelineId}`, { token: owner.token });
    expect(timeline.body.videoCount).toBe(2);
    expect(timeline.body.duration).toBeGreaterThanOrEqual(5.9);

    await page.goto(`/watch/${timelineId}`);
    await page.getByText('1 of 2', { exact: true }).waitFor();
    const video = page.locator('video');
    await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return !!v && v.readyState >= 2 && v.videoWidth > 0;
    }, undefined, { timeout: 30_000 });
    const first = await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
    expect(first[0]).toBeGreaterThan(first[1]!);
    // A fixed quality plays that rendition only: 144p of the 640x360 clip is 256x144.
    await page.getByLabel('Video quality').selectOption('144p', { force: true });
    await page.waitForFunction(() => document.querySelector('video')?.videoHeight === 144, undefined, { timeout: 30_000 });

    // Swipe left (next video), as a finger would: touch events over the player.
    const box = (await video.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.evaluate(({ x0, x1, yy }) => {
      const target = document.elementFromPoint(x0, yy)!;
      const touch = (x: number) => new Touch({ identifier: 1, target, clientX: x, clientY: yy });
      target.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(x0)], changedTouches: [touch(x0)] }));
      target.dispatchEvent(new TouchEvent('touchmove', { bubbles: true, touches: [touch(x1)], changedTouches: [touch(x1)] }));
      target.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(x1)] }));
    }, { x0: box.x + box.width * 0.8, x1: box.x + box.width * 0.2, yy: y });
    await page.getByText('2 of 2', { exact: true }).waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector('video');
      return !!v && v.readyState >= 2 && v.videoHeight > v.videoWidth;
    }, undefined, { timeout: 30_000 });

    expect(problems).toEqual([]);
    await context.close();
  }, 150_000);

  it('continues an upload after the page is reloaded, from the bytes the server already has', async () => {
    const owner = await registerThroughApi(product.baseUrl, newAccount('Agnes', 'Varda'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title: 'Long takes' } });
    const timelineId = created.body.id;
    const source = readFileSync(clips.large);
    const MiB = 1024 * 1024;

    const { context, problems } = await newContext(browser, viewports[0]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    // A slow uplink (4 MiB/s), so the reload lands part-way through.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * MiB });
    const tusRequests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('/api/uploads')) return;
      tusRequests.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`.trim());
    });
    let uploadUrl = '';
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/api/uploads') && response.status() === 201) uploadUrl = new URL(response.headers().location!, product.baseUrl).href;
    });
    const storedOffset = async (): Promise<number> => {
      if (!uploadUrl) return 0;
      const head = await fetch(uploadUrl, { method: 'HEAD', headers: { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0' } });
      return Number(head.headers.get('upload-offset') ?? 0);
    };

    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByRole('heading', { name: 'Long takes', level: 1 }).waitFor();
    await page.getByLabel('Choose videos or images to upload').setInputFiles(clips.large);
    const deadline = Date.now() + 60_000;
    while ((await storedOffset()) < 16 * MiB) {
      if (Date.now() > deadline) throw new Error(`the upload did not get past 16 MiB; requests: ${tusRequests.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    await page.reload();
    const atReload = await storedOffset();
    expect(atReload).toBeGreaterThanOrEqual(16 * MiB);
    expect(atReload).toBeLessThan(source.length);
    await page.getByRole('heading', { name: 'An upload was interrupted' }).waitFor();
    await page.getByText('long-take.mp4').waitFor();

    tusRequests.length = 0;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByLabel('Choose videos or images to upload').setInputFiles(clips.large);
    const queue = page.getByRole('list', { name: 'Upload queue' });
    await queue.getByText('Video ready!').waitFor({ timeout: 90_000 });
    // Asked where it stood, then went on from there: no new upload, no byte sent twice.
    expect(tusRequests[0]).toBe('HEAD');
    expect(tusRequests.filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(Number(tusRequests.find((r) => r.startsWith('PATCH'))!.split(' ')[1])).toBeGreaterThanOrEqual(atReload);
    await page.getByRole('heading', { name: 'An upload was interrupted' }).waitFor({ state: 'detached' });

    const videos = await callApi<Array<{ id: string; status: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token });
    expect(videos.body.map((v) => v.status)).toEqual(['completed']);
    const stored = await fetch(`${product.baseUrl}/api/videos/${videos.body[0]!.id}/stream`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(stored.status).toBe(200);
    const digest = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(digest(Buffer.from(await stored.arrayBuffer()))).toBe(digest(source));

    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
