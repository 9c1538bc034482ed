import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, newContext } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';

/**
 * "Download your data" in settings, in a real Chromium against the real product: the person
 * starts an export on the Account tab, sees its progress, downloads the ZIP from the link, and the
 * ZIP holds their timeline (with its item) and the original file they uploaded, byte for byte.
 */
describe('download your data journey', () => {
  let product: RunningProduct;
  let browser: Browser;
  let clip: string;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-data-export-'));

  beforeAll(async () => {
    product = await startProduct('e2edataexport');
    browser = await launchBrowser();
    clip = makeClip('coast walk.mp4', 2);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(path.dirname(clip), { recursive: true, force: true });
  });

  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  describe.each(journeyViewports)('on a $name', (viewport) => {
    it('export → progress → download: the ZIP holds the timeline and its original file', async () => {
      const person = await registerThroughApi(product.baseUrl, newAccount('Grace', 'Hopper'));
      const title = `Coast walk ${viewport.name}`;
      const timelineId = await publishedTimelineWithClip(product.baseUrl, person.token, title, clip);

      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      await signInWithToken(context, person.token);
      const page = await context.newPage();
      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Account', exact: true }).click();
      await page.waitForURL(/tab=account/);
      await page.getByRole('heading', { name: 'Download your data', exact: true }).waitFor();
      // The place for deleting the account stays apart from the export.
      await page.getByRole('heading', { name: 'Delete account', exact: true }).waitFor();

      // Every text the progress line shows, however briefly.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver(() => {
          const line = document.getElementById('data-export-phase')?.textContent;
          if (line && seen[seen.length - 1] !== line) seen.push(line);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      // Enabled once the person's exports have loaded: a focus before that leaves Enter with nothing to press.
      const start = page.getByRole('button', { name: 'Start export', exact: true, disabled: false });
      await start.waitFor();
      await start.focus();
      await page.keyboard.press('Enter');

      const download = page.getByRole('link', { name: 'Download ZIP', exact: true });
      await download.waitFor({ timeout: 60_000 });
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
      expect(seen.length).toBeGreaterThan(0);
      for (const line of seen) expect(line).toMatch(/ · \d{1,3}%$/);
      await page.getByText(/Your data is ready \(.+\)\. The link expires on /).waitFor();
      // One a day: the button waits for tomorrow and says when.
      await expect(page.getByRole('button', { name: 'Start export', exact: true }).isDisabled()).resolves.toBe(true);
      await page.getByText(/You can start one export a day\. Next export possible on /).waitFor();

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^timeliner-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = path.join(scratch, `${viewport.name}.zip`);
      await file.saveAs(zip);
      const out = path.join(scratch, viewport.name);
      execFileSync('unzip', ['-q', '-o', zip, '-d', out]);

      const timelines = JSON.parse(readFileSync(path.join(out, 'timelines.json'), 'utf8')) as Array<{ id: string; title: string; items: Array<{ originalName: string; file: string | null }> }>;
      expect(timelines).toHaveLength(1);
      expect(timelines[0]).toEqual(expect.objectContaining({ id: timelineId, title, items: [expect.objectContaining({ originalName: 'coast walk.mp4' })] }));
      const original = timelines[0]!.items[0]!.file!;
      expect(original).toMatch(new RegExp(`^media/${timelineId}/[0-9a-f-]{36}-coast_walk\\.mp4$`));
      expect(sha(readFileSync(path.join(out, original)))).toBe(sha(readFileSync(clip)));
      const profile = JSON.parse(readFileSync(path.join(out, 'profile.json'), 'utf8')) as { username: string };
      expect(profile.username).toBe(person.username);

      // A second export the same day is refused with when the next may start.
      const again = await callApi<{ message: string }>(product.baseUrl, 'POST', '/api/account/data-exports', { token: person.token });
      expect(again.status).toBe(429);
      expect(again.body.message).toMatch(/^You can download your data once a day\. You can start a new export on .+ UTC\.$/);

      expect(problems).toEqual([]);
      await context.close();
    }, 180_000);
  });
});
