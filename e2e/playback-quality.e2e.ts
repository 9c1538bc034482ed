import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

type NetworkConditions = { offline: false; latency: number; downloadThroughput: number; uploadThroughput: number; connectionType: 'cellular2g' | 'wifi' };

/**
 * About 0.3 Mbit/s behind a 400 ms round trip. Chromium derives navigator.connection from these:
 * downlink from the throughput (0.35), effectiveType from the latency ('3g' here; '2g' takes
 * about 1.4 s, too slow for a test), so the rule that applies is 'downlink under 0.5'.
 */
const SLOW_2G: NetworkConditions = { offline: false, latency: 400, downloadThroughput: 40_000, uploadThroughput: 20_000, connectionType: 'cellular2g' };
/** 10 Mbit/s, 20 ms. */
const WIFI: NetworkConditions = { offline: false, latency: 20, downloadThroughput: 1_250_000, uploadThroughput: -1, connectionType: 'wifi' };

interface Watched {
  /** What the page's navigator reported under the emulation. */
  reported: { effectiveType?: string; downlink?: number; saveData?: boolean; cores: number };
  /** The quality picker's Auto option, e.g. 'Auto (144p)'. */
  autoLabel: string;
  /** Renditions (by directory, '144p') whose media segments the page fetched. */
  segmentsFrom: string[];
  dataSaverBadge: boolean;
  preload: string;
}

/**
 * Spec 000 section 4 (auto quality, data saver) in the real player: one 1280x720 clip processed
 * into 144p, 360p and 720p renditions, watched in /watch on a phone under Chromium's own network,
 * device and Save-Data emulation (DevTools protocol), so what navigator.connection reports and
 * what travels over the throttled connection are the browser's, not a stub's.
 */
describe('automatic quality in the watch player', () => {
  let product: RunningProduct;
  let browser: Browser;
  let owner: RegisteredAccount;
  let timelineId: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-quality-'));
    const clip = path.join(dir, 'rooftops.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-t', '8', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
    product = await startProduct('e2equality');
    browser = await launchBrowser();

    owner = await registerThroughApi(product.baseUrl, newAccount('Jacques', 'Tati'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title: 'Rooftops' } });
    timelineId = created.body.id;
    const { context } = await newContext(browser, viewports[0]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByLabel('Choose videos or images to upload').setInputFiles(clip);
    await page.getByRole('list', { name: 'Upload queue' }).getByText('Video ready!').waitFor({ timeout: 90_000 });
    await context.close();
    // 'Video ready!' can come with the first rendition; the rules need the whole ladder.
    const deadline = Date.now() + 90_000;
    while ((await callApi<Array<{ status: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token })).body[0]?.status !== 'completed') {
      if (Date.now() > deadline) throw new Error('the clip was not processed');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  /**
   * Opens the timeline in /watch under `emulate` and waits until the player shows a frame
   * `expectedHeight` lines tall with the whole clip buffered, so every rendition choice is made.
   */
  async function watchUnder(emulate: (cdp: CDPSession) => Promise<void>, expectedHeight: number): Promise<Watched> {
    const { context, problems } = await newContext(browser, viewports[0]!, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    // The app's own files first, at full speed: only the player's traffic is under test.
    await page.goto(`/watch/${randomUUID()}`);
    await page.getByRole('heading', { name: 'Timeline Not Found' }).waitFor();

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await emulate(cdp);
    const segments = new Set<string>();
    page.on('request', (request) => {
      const rendition = /\/hls\/(\d+p)\/[^?]+\.(?:ts|m4s)(?:\?|$)/.exec(request.url())?.[1];
      if (rendition) segments.add(rendition);
    });

    await page.goto(`/watch/${timelineId}`);
    const quality = page.getByLabel('Video quality');
    await quality.waitFor({ state: 'attached', timeout: 30_000 });
    try {
      await page.waitForFunction(
        (height) => {
          const v = document.querySelector('video');
          if (!v || v.videoHeight !== height || v.buffered.length === 0 || !Number.isFinite(v.duration)) return false;
          return v.buffered.end(v.buffered.length - 1) >= v.duration - 0.5;
        },
        expectedHeight,
        { timeout: 60_000, polling: 100 },
      );
    } catch (error) {
      const seen = await page.evaluate(() => {
        const v = document.querySelector('video');
        return v ? { height: v.videoHeight, duration: v.duration, buffered: v.buffered.length ? v.buffered.end(v.buffered.length - 1) : 0 } : null;
      });
      throw new Error(`no ${expectedHeight}-line picture with the clip buffered: ${JSON.stringify({ seen, segments: [...segments] })}`, { cause: error });
    }

    const watched: Watched = {
      reported: await page.evaluate(() => {
        const connection = (navigator as Navigator & { connection?: { effectiveType?: string; downlink?: number; saveData?: boolean } }).connection;
        return { effectiveType: connection?.effectiveType, downlink: connection?.downlink, saveData: connection?.saveData, cores: navigator.hardwareConcurrency };
      }),
      autoLabel: (await quality.locator('option[value="auto"]').textContent()) ?? '',
      segmentsFrom: [...segments].sort((a, b) => parseInt(a) - parseInt(b)),
      dataSaverBadge: await page.getByText('Data saver', { exact: true }).isVisible(),
      preload: (await page.locator('video').getAttribute('preload')) ?? '',
    };
    expect(problems).toEqual([]);
    await context.close();
    return watched;
  }

  /** A device with `count` cores on `network`. */
  const deviceOn = (count: number, network: NetworkConditions) => async (cdp: CDPSession) => {
    await cdp.send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: count });
    await cdp.send('Network.emulateNetworkConditions', network);
  };

  it('has the three renditions the rules choose between', async () => {
    const videos = await callApi<Array<{ hlsUrl: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token });
    const master = await fetch(new URL(videos.body[0]!.hlsUrl, product.baseUrl), { headers: { authorization: `Bearer ${owner.token}` } });
    const heights = [...(await master.text()).matchAll(/RESOLUTION=\d+x(\d+)/g)].map((match) => Number(match[1]));
    expect(heights.sort((a, b) => a - b)).toEqual([144, 360, 720]);
  });

  it('plays 144p only on a slow 2G connection', async () => {
    const watched = await watchUnder(deviceOn(8, SLOW_2G), 144);
    expect(watched.reported.downlink).toBeLessThan(0.5);
    expect(watched.autoLabel).toBe('Auto (144p)');
    expect(watched.segmentsFrom).toEqual(['144p']);
  }, 120_000);

  it('climbs to 720p on a fast connection and a capable device', async () => {
    const watched = await watchUnder(deviceOn(8, WIFI), 720);
    expect(watched.reported).toMatchObject({ effectiveType: '4g', cores: 8 });
    expect(watched.reported.downlink).toBeGreaterThanOrEqual(1.5);
    expect(watched.autoLabel).toBe('Auto (720p)');
    expect(watched.segmentsFrom).toContain('720p');
    expect(watched.dataSaverBadge).toBe(false);
    expect(watched.preload).toBe('auto');
  }, 120_000);

  it('holds a low-end device at 360p even when the connection could carry more', async () => {
    const watched = await watchUnder(deviceOn(2, WIFI), 360);
    expect(watched.reported.cores).toBe(2);
    expect(watched.reported.downlink).toBeGreaterThanOrEqual(1.5);
    expect(watched.autoLabel).toBe('Auto (360p)');
    expect(watched.segmentsFrom).not.toContain('720p');
    expect(watched.segmentsFrom).toContain('360p');
  }, 120_000);

  it('lowers a capable device to 360p on a battery at 12 % that is not charging, with data saver and no preloading', async () => {
    // This Chromium always reports a full, charging battery and has no command to emulate one, so
    // the page is given a battery manager of its own before any script of the app runs.
    const lowBattery = `Object.defineProperty(Navigator.prototype, 'getBattery', { configurable: true, value() {
      const manager = new EventTarget();
      Object.assign(manager, { level: 0.12, charging: false, chargingTime: Infinity, dischargingTime: 1800 });
      return Promise.resolve(manager);
    } });`;
    const watched = await watchUnder(async (cdp) => {
      await deviceOn(8, WIFI)(cdp);
      // Scripts for new documents are only taken while the Page domain is on.
      await cdp.send('Page.enable');
      await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: lowBattery });
    }, 360);
    expect(watched.reported).toMatchObject({ effectiveType: '4g', cores: 8 });
    expect(watched.autoLabel).toBe('Auto (360p)');
    expect(watched.segmentsFrom).toContain('360p');
    expect(watched.segmentsFrom).not.toContain('720p');
    expect(watched.dataSaverBadge).toBe(true);
    expect(watched.preload).toBe('metadata');
  }, 120_000);

  it('turns data saver on when the browser asks to save data, without preloading', async () => {
    const watched = await watchUnder(async (cdp) => {
      await deviceOn(8, WIFI)(cdp);
      await cdp.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
    }, 720);
    expect(watched.reported.saveData).toBe(true);
    expect(watched.dataSaverBadge).toBe(true);
    expect(watched.preload).toBe('metadata');
    // Spec 000 section 4 lowers quality for the network, the device and the battery, not for Save-Data.
    expect(watched.autoLabel).toBe('Auto (720p)');
  }, 120_000);
});
