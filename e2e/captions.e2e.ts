import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { eventually } from './support/watch.js';

/** A caption file as a creator's editor might save it: BOM, CRLF, an SRT-style cue number, and markup that must not survive. */
const CAPTIONS = [
  '\uFEFFWEBVTT',
  '',
  '1',
  '00:00:00.000 --> 00:00:01.500',
  'Welcome to the <b>kitchen</b><script>alert(1)</script>',
  '',
  '2',
  '00:00:01.500 --> 00:00:03.000',
  '<v Cook>Today we make marmalade<img src=x onerror=alert(2)></v>',
  '',
  '00:00:03.000 --> 00:00:04.000',
  'Enjoy',
  '',
].join('\r\n');

/**
 * Captions, phone and desktop: the creator adds a caption file in Video Management, a viewer turns
 * captions on in the player, reads the transcript and clicks a cue (the video seeks there), with no
 * serious or critical axe violation on the player with captions on; search finds the spoken word
 * with its time.
 */
describe('captions and transcript', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;
  let videoTitle: string;
  let videoId: string;
  let captionFile: string;

  beforeAll(async () => {
    product = await startProduct('e2ecaptions');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Agnes', 'Varda'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Chris', 'Marker'));
    timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, 'Sunday kitchen', makeClip('kitchen.mp4', 4));
    const videos = await callApi<Array<{ id: string; title: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token });
    videoTitle = videos.body[0]!.title;
    videoId = videos.body[0]!.id;
    captionFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-captions-')), 'kitchen.en.vtt');
    writeFileSync(captionFile, CAPTIONS);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it.each(viewports.map((viewport) => [viewport.name, viewport] as const))('%s: add captions in the studio, turn them on, read and click the transcript', async (_name, viewport) => {
    // The creator adds the file in Video Management.
    const studio = await newContext(browser, viewport, product.baseUrl);
    await signInWithToken(studio.context, creator.token);
    const page = await studio.context.newPage();
    await page.goto(`/timeline/${timelineId}`);
    await page.getByRole('button', { name: `Captions of ${videoTitle}` }).click();
    const editor = page.getByRole('region', { name: `Captions of ${videoTitle}` });
    await editor.getByLabel('Language').fill('en');
    await editor.getByLabel('Caption file (WebVTT or SRT, up to 1 MB)').setInputFiles(captionFile);
    await editor.getByRole('button', { name: 'Add captions' }).click();
    // The answer came (a second run of the journey replaces the track the first one added).
    await page.getByText('Captions added', { exact: true }).first().waitFor();
    await editor.getByRole('button', { name: 'Add captions' }).waitFor();
    await editor.getByText('(en, 3 cues)').waitFor();
    // A file that is not captions is refused with the reason, and nothing changes.
    const bad = path.join(path.dirname(captionFile), 'notes.vtt');
    writeFileSync(bad, 'WEBVTT\n\n00:00:0x.000 --> 00:00:01.000\nbroken\n');
    await editor.getByLabel('Caption file (WebVTT or SRT, up to 1 MB)').setInputFiles(bad);
    await editor.getByRole('button', { name: 'Add captions' }).click();
    await editor.getByRole('alert').filter({ hasText: 'Line 3: the start time "00:00:0x.000" is not a time like 00:01:02.500' }).waitFor();
    await studio.context.close();
    expect(studio.problems).toEqual([]);

    // A viewer turns captions on in the player.
    const watching = await newContext(browser, viewport, product.baseUrl);
    await signInWithToken(watching.context, viewer.token);
    const player = await watching.context.newPage();
    await player.goto(`/watch/${timelineId}`);
    const menu = player.getByRole('combobox', { name: 'Captions' });
    await menu.waitFor();
    await menu.selectOption({ label: 'CC English' });
    const showing = () =>
      player.evaluate(() => {
        const track = [...(document.querySelector('video')?.textTracks ?? [])].find((t) => t.language === 'en');
        return track ? { mode: track.mode, cues: track.cues?.length ?? 0, text: track.cues?.[1] ? (track.cues[1] as VTTCue).text : '' } : null;
      });
    const loaded = await eventually('the English track showing with its cues', async () => {
      const state = await showing();
      return state && state.mode === 'showing' && state.cues === 3 ? state : undefined;
    });
    // What reached the browser is the sanitised cue: the voice kept, the img gone.
    expect(loaded.text).toBe('<v Cook>Today we make marmalade</v>');
    // The choice is remembered on this device.
    expect(await player.evaluate(() => [localStorage.getItem('captions-on'), localStorage.getItem('captions-language')])).toEqual(['1', 'en']);

    // The transcript: a list of buttons, a click seeks, the current cue marked.
    await player.getByRole('button', { name: 'Transcript' }).click();
    const transcript = player.getByRole('region', { name: 'Transcript' });
    const cues = transcript.getByRole('button');
    await eventually('three cues in the transcript', async () => ((await cues.count()) === 3 ? true : undefined));
    expect(await cues.allInnerTexts()).toEqual([expect.stringContaining('Welcome to the kitchen'), expect.stringContaining('Today we make marmalade'), expect.stringContaining('Enjoy')]);
    await player.evaluate(() => document.querySelector('video')?.pause());
    await cues.nth(1).click();
    await eventually('the video at the cue', async () => {
      const at = await player.evaluate(() => document.querySelector('video')?.currentTime ?? -1);
      return at >= 1.5 && at < 3 ? at : undefined;
    });
    await eventually('the clicked cue marked current', async () => ((await cues.nth(1).getAttribute('aria-current')) === 'true' ? true : undefined));
    // The click kept the focus on the cue (nothing moved it away).
    expect(await cues.nth(1).evaluate((element) => element === document.activeElement)).toBe(true);

    // axe-core on the player with captions on and the transcript open.
    const serious = (await axeViolations(player)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.summary)).toEqual([]);

    // A later visit starts with captions on (the remembered choice).
    await player.reload();
    await eventually('captions on again after a reload', async () => ((await showing())?.mode === 'showing' ? true : undefined));
    // C turns them off and on again from the keyboard.
    await player.getByRole('combobox', { name: 'Captions' }).waitFor();
    await player.locator('body').press('c');
    await eventually('captions off by the C key', async () => ((await showing())?.mode !== 'showing' ? true : undefined));
    await player.locator('body').press('c');
    await eventually('captions on by the C key', async () => ((await showing())?.mode === 'showing' ? true : undefined));

    // Search finds the spoken word and says where it is said; the result opens that video.
    await player.goto('/search?q=marmalade');
    const result = player.getByRole('link').filter({ hasText: 'Sunday kitchen' });
    await result.getByText('Said at 0:01', { exact: false }).waitFor();
    await result.click();
    await eventually('the watch page of the video', async () => (new URL(player.url()).pathname === `/watch/${timelineId}` ? true : undefined));
    expect(new URL(player.url()).searchParams.get('video')).toBe(videoId);
    await watching.context.close();
    expect(watching.problems).toEqual([]);
  }, 180_000);

  it('search finds the spoken word with the video and the time of its cue', async () => {
    const found = await eventually('the spoken word indexed', async () => {
      const answer = await callApi<{ timelines: Array<{ id: string; spoken?: { videoId: string; startTime: number; text: string } }> }>(
        product.baseUrl, 'GET', '/api/search/enhanced?q=marmalade&type=timelines', { token: viewer.token },
      );
      return answer.body.timelines.find((t) => t.id === timelineId);
    });
    expect(found.spoken).toEqual(expect.objectContaining({ startTime: 1.5, text: 'Today we make marmalade' }));
  }, 60_000);
});
