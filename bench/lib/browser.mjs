// The system Chromium the benches drive (never a downloaded one), headless, with the flags this
// machine's closed network needs (no background connections, no component updates). Closed by
// lib/cleanup.mjs when the bench is stopped (puppeteer's own signal handlers, which exit before
// the bench's cleanup has run, are off).
import puppeteer from 'puppeteer-core';
import { onCleanup } from './cleanup.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Launches it; `options` are puppeteer's (a default viewport, say). */
export async function launchChromium(options = {}) {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: CHROME_FLAGS,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...options,
  });
  const unregister = onCleanup('Chromium', () => browser.close());
  browser.once('disconnected', unregister);
  return browser;
}
