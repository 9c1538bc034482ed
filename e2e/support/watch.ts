import type { BrowserContext } from 'playwright-core';

/** Polls `check` until it answers something, or fails naming what it waited for. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Records into `problems` whatever goes wrong on the context's pages: page errors, console
 * errors (and console warnings matching `warnings`), failed requests and 4xx/5xx answers. A
 * request cancelled by a reload or a detached video (net::ERR_ABORTED) is not a failure.
 */
export function watchPages(context: BrowserContext, problems: string[], options: { warnings?: RegExp } = {}): void {
  context.on('page', (page) => {
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
      else if (msg.type() === 'warning' && options.warnings?.test(msg.text())) problems.push(`console warning: ${msg.text()}`);
    });
    page.on('requestfailed', (request) => {
      const error = request.failure()?.errorText ?? '';
      if (error === 'net::ERR_ABORTED') return;
      problems.push(`request failed: ${request.method()} ${request.url()} ${error}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} answer: ${response.request().method()} ${response.url()}`);
    });
  });
}

/** The install prompt is not the journey's subject: it would cover the bottom of a phone's screen. */
export async function dismissInstallPrompt(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    try {
      localStorage.setItem('pwa-install-dismissed', String(Date.now()));
    } catch {
      // No storage (about:blank).
    }
  });
}
