import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser.js';

// The Timeline Settings tab bar with the app's own styles, as a phone and a desktop lay it out:
// no tab may be cut off ("Adva…") or sit beyond the dialog's edge.
const src = path.resolve(import.meta.dirname, '../frontend/src');
const css = ['index.css', 'components/ui/dialog.css', 'features/timelines/components/timelines.css']
  .map((file) => readFileSync(path.join(src, file), 'utf8'))
  .join('\n');
const html = `<!doctype html><html><head><style>${css}</style></head><body>
  <div class="dialog dialog--lg" role="dialog"><div class="dialog__body"><div class="tabs">
    <div class="tabs__list" role="tablist">${['General', 'Privacy', 'Sharing', 'Advanced'].map((t) => `<button class="tabs__trigger" role="tab">${t}</button>`).join('')}</div>
  </div></div></div></body></html>`;

describe('Timeline Settings tab bar', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([320, 390, 1366])('shows every tab whole and inside the dialog at %i px', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 844 } });
    await page.setContent(html);
    const tabs = await page.evaluate(() => {
      const list = document.querySelector('.tabs__list')!.getBoundingClientRect();
      return [...document.querySelectorAll<HTMLElement>('.tabs__trigger')].map((tab) => {
        const box = tab.getBoundingClientRect();
        return { name: tab.textContent, inside: box.left >= list.left - 0.5 && box.right <= list.right + 0.5, whole: tab.scrollWidth <= tab.clientWidth, top: Math.round(box.top) };
      });
    });
    expect(tabs.filter((tab) => !tab.inside || !tab.whole)).toEqual([]);
    // A phone's 390 px fits the four in one row.
    if (width >= 390) expect(new Set(tabs.map((tab) => tab.top)).size).toBe(1);
    await page.close();
  });
});
