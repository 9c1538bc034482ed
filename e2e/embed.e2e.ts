import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Frame } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, pathOf, toast } from './support/screens.js';

/**
 * The Sharing tab's embed code in another site's page: a public, published timeline plays in an
 * 800 x 600 iframe from another origin, without signing in, and so does an unlisted one (whoever
 * holds the code holds its link), with nothing that leads nowhere in a frame; a private one shows
 * that it cannot be embedded; and the app's other pages still refuse to be framed. Beside it, what
 * a signed-out caller may read (exactly what the embed needs), a shared post's own page, and the
 * player's export telling how far it is.
 */
describe('the embed player in another site', () => {
  let product: RunningProduct;
  let browser: Browser;
  let owner: RegisteredAccount;
  let site: Server;
  let siteUrl: string;
  let publicId: string;
  let privateId: string;
  let unlistedId: string;

  const upload = async (timelineId: string, file: string) => {
    const form = new FormData();
    form.append('video', new Blob([readFileSync(file)], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${product.baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
    expect(res.status).toBeLessThan(300);
  };

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-embed-'));
    const clip = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '6', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
    product = await startProduct('e2eembed');
    browser = await launchBrowser();
    owner = await registerThroughApi(product.baseUrl, newAccount('Agnes', 'Varda'));
    const make = async (title: string, visibility: string) => {
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title } });
      await upload(created.body.id, clip);
      const updated = await callApi(product.baseUrl, 'PATCH', `/api/timelines/${created.body.id}`, { token: owner.token, body: { visibility, status: 'published' } });
      expect(updated.status).toBe(200);
      return created.body.id;
    };
    publicId = await make('Beaches', 'public');
    privateId = await make('Diary', 'private');
    unlistedId = await make('Harbour', 'unlisted');
    const deadline = Date.now() + 120_000;
    for (const id of [publicId, unlistedId]) {
      while ((await callApi<Array<{ status: string }>>(product.baseUrl, 'GET', `/api/timelines/${id}/videos`, { token: owner.token })).body[0]?.status !== 'completed') {
        if (Date.now() > deadline) throw new Error('the clip was not processed');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    // Another origin (another port): a page that embeds with the Sharing tab's code.
    site = createServer((request, response) => {
      const id = new URL(request.url ?? '/', 'http://x').searchParams.get('id') ?? '';
      const page = new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? `/embed/timeline/${id}`;
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><title>Travel blog</title><h1>My trip</h1><iframe src="${product.baseUrl}${page}" width="800" height="600" title="Timeline" frameborder="0" allowfullscreen></iframe>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  }, 240_000);
  afterAll(async () => {
    site?.close();
    await browser?.close();
    await product?.stop();
  }, 60_000);

  const embedded = async (query: string): Promise<{ frame: Frame; problems: string[]; close: () => Promise<void> }> => {
    const { context, problems } = await newContext(browser, viewports[1]!, siteUrl);
    const page = await context.newPage();
    await page.goto(`${siteUrl}/?${query}`);
    const handle = await page.waitForSelector('iframe');
    const frame = (await handle.contentFrame())!;
    return { frame, problems, close: () => context.close() };
  };

  it('plays a public published timeline inside an 800 x 600 iframe of another origin, signed out', async () => {
    const { frame, problems, close } = await embedded(`id=${publicId}`);
    const video = frame.locator('video');
    await video.waitFor({ timeout: 30_000 });
    // Muted autoplay, as in the watch player: time advances with nobody signed in.
    await frame.waitForFunction(() => {
      const v = document.querySelector('video');
      return Boolean(v && !v.paused && v.currentTime > 0.5);
    }, undefined, { timeout: 30_000 });
    const box = await frame.locator('body').boundingBox();
    expect(box).toMatchObject({ width: 800, height: 600 });
    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  it('plays an unlisted published timeline too, with no back or download control, its title opening it on the site', async () => {
    const { frame, problems, close } = await embedded(`id=${unlistedId}`);
    await frame.locator('video').waitFor({ timeout: 30_000 });
    await frame.waitForFunction(() => {
      const v = document.querySelector('video');
      return Boolean(v && !v.paused && v.currentTime > 0.5);
    }, undefined, { timeout: 30_000 });
    expect(await frame.getByRole('heading', { name: 'Timeline unavailable' }).count()).toBe(0);
    // Back and Download lead nowhere in another site's frame (and exporting needs an account).
    expect(await button(frame.locator('body'), 'Back').count()).toBe(0);
    expect(await frame.getByRole('button', { name: /download/i }).count()).toBe(0);
    const title = frame.getByRole('link', { name: 'Harbour' });
    expect(await title.getAttribute('href')).toBe(`/watch/${unlistedId}`);
    expect(await title.getAttribute('target')).toBe('_blank');
    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  it('lets a signed-out caller read exactly what the embed needs, and nothing else', async () => {
    const anonymous = (path: string) => callApi<Record<string, unknown>>(product.baseUrl, 'GET', path);
    // The embed's timeline, with its counts and its creator's name; its videos.
    const shown = await anonymous(`/api/timelines/${publicId}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: publicId, creatorName: owner.displayName });
    expect((await anonymous(`/api/timelines/${unlistedId}`)).status).toBe(200);
    expect((await anonymous(`/api/timelines/${publicId}/videos`)).status).toBe(200);
    // A private one does not exist for them.
    expect((await anonymous(`/api/timelines/${privateId}`)).status).toBe(404);
    // Everything else needs a signed-in user (spec 001): the same answer for each.
    for (const path of ['/api/posts', '/api/feed', '/api/timelines', `/api/users/${owner.id}/profile`, `/api/users/${owner.id}/timelines`, `/api/users/${owner.id}/activity`, '/api/search/enhanced?q=beach', '/api/hashtags/trending']) {
      const answer = await anonymous(path);
      expect([path, answer.status, answer.body]).toEqual([path, 401, { statusCode: 401, error: 'Unauthorized', message: 'Authentication required' }]);
    }
  });

  it("opens a shared post on its own page, after the sign-in screen for someone signed out", async () => {
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: owner.token, body: { content: 'Back from the beaches, the timeline is up' } });
    expect(created.status).toBe(201);
    const { context, problems } = await newContext(browser, viewports[0]!, product.baseUrl);
    const page = await context.newPage();
    await page.goto(`/post/${created.body.id}`);
    await page.getByRole('heading', { name: 'Welcome Back', exact: true }).waitFor();
    await page.getByLabel('Email or Username').fill(owner.username);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Back from the beaches, the timeline is up').waitFor();
    expect(pathOf(page)).toBe(`/post/${created.body.id}`);
    // Its share link is this page.
    await page.getByRole('button', { name: /share/i }).first().click();
    const email = page.getByRole('link', { name: 'Email' });
    await email.waitFor();
    expect(decodeURIComponent((await email.getAttribute('href')) ?? '')).toContain(`${product.baseUrl}/post/${created.body.id}`);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows how far an export is in the player, then says the download started', async () => {
    const { context, problems } = await newContext(browser, viewports[1]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    await page.goto(`/watch/${publicId}`);
    const download = page.getByRole('button', { name: 'Download timeline' });
    await download.waitFor();
    const saved = page.waitForEvent('download', { timeout: 120_000 });
    await download.click();
    // Not a greyed icon alone: the player says what is going on, and how far it is.
    await page.getByRole('status').filter({ hasText: 'Preparing your download' }).waitFor();
    await page.getByRole('button', { name: /^Preparing download/ }).waitFor();
    await toast(page, 'Your download has started').waitFor({ timeout: 120_000 });
    expect((await saved).suggestedFilename()).toBe('Beaches.mp4');
    expect(await page.getByRole('status').filter({ hasText: 'Preparing your download' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 150_000);

  it('says a private timeline cannot be shown, with a way to open it on the site', async () => {
    const { frame, close } = await embedded(`id=${privateId}`);
    await frame.getByRole('heading', { name: 'Timeline unavailable' }).waitFor({ timeout: 30_000 });
    expect(await frame.getByRole('link', { name: 'Open in Timeliner' }).getAttribute('href')).toBe(`/watch/${privateId}`);
    await close();
  }, 60_000);

  it('keeps every other page out of frames', async () => {
    const { frame, close } = await embedded(`page=/watch/${publicId}`);
    // The browser refuses to render it (frame-ancestors 'none'): the frame never gets the app.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await frame.locator('#root *').count().catch(() => 0)).toBe(0);
    await close();
  }, 60_000);
});
