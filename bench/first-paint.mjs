#!/usr/bin/env node
// First-paint A/B benchmark: the first screen's paint times and blocking time, measured in real
// time in Chromium with its CPU slowed 4x, over many cold loads, with the builds under comparison
// taking turns. Lighthouse's simulated timings swing by seconds between runs on a machine whose
// page faults are slow (bench/HISTORY.md); interleaved real loads, many of them, still tell two
// builds apart.
//
//   WEB_DIST=/tmp/build-a LIGHTHOUSE_HOLD=/tmp/a.json node bench/lighthouse.mjs &   (one per build)
//   WEB_DIST=/tmp/build-b LIGHTHOUSE_HOLD=/tmp/b.json node bench/lighthouse.mjs &
//   node bench/first-paint.mjs /tmp/a.json /tmp/b.json
//
// Each argument is the file a held product writes (its address and the seeded accounts' tokens;
// see bench/lighthouse.mjs). Each round loads the page once from every product, in a fresh
// browser context holding only the session token, on a 412 x 823 screen, and reads from the page:
// first contentful paint, the last largest-contentful-paint entry (its element, and how many
// cards were on the page then), and the long tasks after the first paint (blocking time: each
// one's excess over 50 ms). Printed per product: quartiles of FCP, LCP, LCP - FCP and blocking
// time.
// Env: CHROMIUM (/usr/bin/chromium), FIRST_PAINT_RUNS (25 rounds), FIRST_PAINT_PATH (/; in it,
// {creatorId} and {timelineId} stand for each product's seeded creator and timeline),
// FIRST_PAINT_AS (viewer | creator), FIRST_PAINT_CPU (4), FIRST_PAINT_WAIT_MS (7000: how long
// each load is watched).
import { readFileSync } from 'node:fs';
import { launchChromium } from './lib/browser.mjs';
import { cleanup } from './lib/cleanup.mjs';

const env = process.env;
const RUNS = Number(env.FIRST_PAINT_RUNS ?? 25);
const PATH = env.FIRST_PAINT_PATH ?? '/';
const AS = env.FIRST_PAINT_AS ?? 'viewer';
const CPU = Number(env.FIRST_PAINT_CPU ?? 4);
const WAIT_MS = Number(env.FIRST_PAINT_WAIT_MS ?? 7000);

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/first-paint.mjs <held product file> [<held product file> ...]');
  process.exit(2);
}
const products = files.map((file) => ({ file, ...JSON.parse(readFileSync(file, 'utf8')) }));

/** Runs in the page before its own scripts: records the paint entries and long tasks. */
function observePaints() {
  const record = { lcp: [], longTasks: [] };
  Object.defineProperty(globalThis, '__firstPaint', { value: record });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      record.lcp.push({ at: Math.round(entry.startTime), element: entry.element?.className || `${entry.element?.tagName ?? ''} in ${entry.element?.parentElement?.className ?? ''}`, cards: globalThis.document.querySelectorAll('article').length });
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
}

async function load(browser, product) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 412, height: 823 });
    await page.goto(`${product.baseUrl}/manifest.webmanifest`);
    await page.evaluate((token) => localStorage.setItem('authToken', token), AS === 'creator' ? product.creatorToken : product.viewerToken);
    await page.evaluateOnNewDocument(observePaints);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
    await page.goto(`${product.baseUrl}${pathFor(product)}`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    const { fcp, lcp, longTasks } = await page.evaluate(() => ({
      fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
      lcp: globalThis.__firstPaint.lcp,
      longTasks: globalThis.__firstPaint.longTasks,
    }));
    const last = lcp.at(-1);
    return {
      fcp,
      lcp: last?.at ?? -1,
      lcpElement: last?.element ?? '',
      cardsAtLcp: last?.cards ?? 0,
      blocking: longTasks.filter(([start]) => start >= fcp).reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
    };
  } finally {
    await context.close();
  }
}

/** The page's path for one product: `{creatorId}` and `{timelineId}` stand for its seeded ones. */
const pathFor = (product) => PATH.replaceAll('{creatorId}', product.creatorId).replaceAll('{timelineId}', product.timelineId);

const quartiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return `${String(at(0.25)).padStart(5)} ${String(at(0.5)).padStart(5)} ${String(at(0.75)).padStart(5)}`;
};

const browser = await launchChromium();
const results = products.map(() => []);
try {
  console.log(`${RUNS} rounds of cold loads of ${PATH} as the ${AS}, CPU ${CPU}x slower, the products taking turns`);
  for (let round = 0; round < RUNS; round++) {
    for (const [index, product] of products.entries()) results[index].push(await load(browser, product));
  }
} finally {
  // Chromium; also on Ctrl-C or SIGTERM (lib/cleanup.mjs).
  await cleanup();
}

console.log(`${'ms: p25 median p75'.padEnd(38)} ${['FCP', 'LCP', 'LCP - FCP', 'blocking'].map((name) => name.padStart(17)).join('  ')}   LCP element (cards on the page then)`);
for (const [index, runs] of results.entries()) {
  const elements = [...new Set(runs.map((run) => `${run.lcpElement} (${run.cardsAtLcp})`))].join(', ');
  console.log(
    `${files[index].padEnd(38)} ${quartiles(runs.map((r) => r.fcp))}  ${quartiles(runs.map((r) => r.lcp))}  ${quartiles(runs.map((r) => r.lcp - r.fcp))}  ${quartiles(runs.map((r) => r.blocking))}   ${elements}`,
  );
}
