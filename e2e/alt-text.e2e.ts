import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { eventually } from './support/watch.js';

interface Item {
  id: string;
  title: string;
  mediaType: 'video' | 'image';
  altText: string | null;
  altTextDeferred: boolean;
}

const ALT = 'A lighthouse on a rock, waves breaking below';
const DESCRIPTION = 'Test pattern with moving colour bars';

const seriousOf = async (page: Page) => (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.summary);

/**
 * Alt text, phone and desktop: an image uploaded from the Add Videos sheet asks for alt text; the
 * creator chooses "Add later" (remembered by the server), finds it in the studio's list of items
 * missing alt text and adds it there; a viewer's player names the image with it, describes the
 * video with its description, and the ALT badge shows each on screen. axe-core finds no serious or
 * critical violation on the sheet with the prompt or on the studio.
 */
describe('alt text and descriptions', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let still: string;
  let clip: string;

  beforeAll(async () => {
    product = await startProduct('e2ealttext');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Dorothea', 'Lange'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Helen', 'Keller'));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-alt-'));
    still = path.join(dir, 'Lighthouse.jpg');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360', '-frames:v', '1', still]);
    clip = makeClip('bars.mp4', 3);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  it.each(viewports.map((viewport) => [viewport.name, viewport] as const))('%s: prompted at upload, Add later, added in the studio, shown by the ALT badge', async (name, viewport) => {
    const timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, `Coast ${name}`, clip);
    const [video] = (await callApi<Item[]>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token })).body as [Item];
    await callApi(product.baseUrl, 'PUT', `/api/videos/${video.id}/alt-text`, { token: creator.token, body: { altText: DESCRIPTION } });

    // The creator adds a picture from the Add Videos sheet: once stored, it asks for alt text.
    const studio = await newContext(browser, viewport, product.baseUrl);
    await signInWithToken(studio.context, creator.token);
    const page = await studio.context.newPage();
    await page.goto(`/timeline/${timelineId}?tab=upload`);
    await page.getByRole('heading', { name: `Coast ${name}`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Record or take a video' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add Videos' });
    await sheet.waitFor();
    await sheet.getByLabel('Choose videos or images from the gallery').setInputFiles([still]);
    const prompt = sheet.getByRole('region', { name: 'Alt text for your uploads' });
    await prompt.getByRole('heading', { name: 'This image needs alt text' }).waitFor({ timeout: 60_000 });
    await prompt.getByRole('textbox', { name: 'Alt text for Lighthouse.jpg' }).waitFor();
    // The sheet stays open while it asks (it would close 1.5 s after the upload otherwise).
    await page.waitForTimeout(2_000);
    expect(await sheet.isVisible()).toBe(true);
    expect(await seriousOf(page)).toEqual([]);

    // "Add later": remembered by the server; the prompt goes and the sheet closes.
    await prompt.getByRole('button', { name: 'Add later' }).click();
    await sheet.waitFor({ state: 'hidden', timeout: 10_000 });
    const image = await eventually('the image put off', async () => {
      const items = (await callApi<Item[]>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos?include=images`, { token: creator.token })).body;
      return items.find((item) => item.mediaType === 'image' && item.altTextDeferred);
    });
    expect(image.altText).toBeNull();

    // The studio lists it as missing; a quick edit adds the alt text.
    await page.reload();
    const section = page.getByRole('region', { name: 'Alt text and descriptions' });
    await section.getByText('1 item is missing alt text or a description').waitFor();
    const missing = section.getByRole('list', { name: 'Items missing alt text or a description' });
    await missing.getByText('Marked for later').waitFor();
    // No prompt in the studio for it: it was answered.
    expect(await page.getByRole('heading', { name: 'This image needs alt text' }).count()).toBe(0);
    await missing.getByRole('button', { name: `Add alt text to ${image.title}` }).click();
    await section.getByRole('textbox', { name: `Alt text for ${image.title}` }).fill(`  <b>${ALT}</b>  `);
    expect(await seriousOf(page)).toEqual([]);
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('Every image and video has alt text or a description.').waitFor();
    // Video Management shows it too.
    await page.getByRole('list', { name: 'Videos in manual order' }).getByText(ALT).waitFor();
    expect(await seriousOf(page)).toEqual([]);
    await studio.context.close();
    expect(studio.problems).toEqual([]);

    // A viewer: the video is described, the image named by its alt text, the ALT badge shows each.
    const watching = await newContext(browser, viewport, product.baseUrl);
    await signInWithToken(watching.context, viewer.token);
    const player = await watching.context.newPage();
    await player.goto(`/watch/${timelineId}`);
    await player.getByText('1 of 2', { exact: true }).waitFor();
    expect(await player.locator('video.player__video').getAttribute('aria-description')).toBe(DESCRIPTION);
    // The controls hide while the video plays: the badge is reached by the keyboard too.
    await player.getByRole('button', { name: 'Show alt text' }).press('Enter');
    const note = player.getByRole('note', { name: 'Description' });
    await note.getByText(DESCRIPTION).waitFor();
    expect(await note.isVisible()).toBe(true);
    await note.getByRole('button', { name: 'Close' }).click();
    await note.waitFor({ state: 'detached' });

    await player.getByRole('button', { name: /^Image 2 of 2/ }).press('Enter');
    await player.getByText('2 of 2', { exact: true }).waitFor();
    await player.getByRole('img', { name: ALT }).waitFor();
    await player.getByRole('button', { name: 'Show alt text' }).press('Enter');
    const altNote = player.getByRole('note', { name: 'Alt text' });
    await altNote.getByText(ALT).waitFor();
    expect(await altNote.isVisible()).toBe(true);
    await player.keyboard.press('Escape');
    await altNote.waitFor({ state: 'detached' });
    // The focus is back on the badge, and the player is still on the image.
    expect(await player.getByRole('button', { name: 'Show alt text' }).evaluate((element) => element === document.activeElement)).toBe(true);
    expect(new URL(player.url()).pathname).toBe(`/watch/${timelineId}`);
    await watching.context.close();
    expect(watching.problems).toEqual([]);
  }, 240_000);
});
