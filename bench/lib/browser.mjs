// The system Chromium the benches drive (never a downloaded one), headless, with the flags this
// machine's closed network needs (no background connections, no component updates).
import puppeteer from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Launches it; `options` are puppeteer's (a default viewport, say). */
export function launchChromium(options = {}) {
  return puppeteer.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS, headless: true, ...options });
}
