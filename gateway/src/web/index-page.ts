import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';

/**
 * The app's HTML page with a fresh CSP nonce per response. Scripts stay `'self'` only; the nonce
 * lets the UI library's dialogs add the one <style> element they need to lock page scrolling,
 * which `style-src 'self'` alone would block. The page carries the nonce in
 * `<meta name="csp-nonce">`, where the app reads it.
 */
export class IndexPage {
  private cached: { mtimeMs: number; html: string } | undefined;

  constructor(private readonly file: string) {}

  /**
   * Null when the app is not built. `framable`: the page may be shown in another site's iframe
   * (the embed player); every other page may be framed by nobody.
   */
  async render(options: { framable?: boolean } = {}): Promise<{ html: string; csp: string } | null> {
    const info = await stat(this.file).catch(() => null);
    if (!info?.isFile()) return null;
    if (this.cached?.mtimeMs !== info.mtimeMs) {
      this.cached = { mtimeMs: info.mtimeMs, html: await readFile(this.file, 'utf8') };
    }
    const nonce = randomBytes(16).toString('base64');
    return { html: withNonce(this.cached.html, nonce), csp: policyWithStyleNonce(nonce, options.framable ? ['*'] : undefined) };
  }
}

const NONCE_META = /<meta\s+name="csp-nonce"[^>]*>/i;

export function withNonce(html: string, nonce: string): string {
  const meta = `<meta name="csp-nonce" content="${nonce}">`;
  if (NONCE_META.test(html)) return html.replace(NONCE_META, meta);
  return html.replace(/<head([^>]*)>/i, `<head$1>\n    ${meta}`);
}

export function policyWithStyleNonce(nonce: string, frameAncestors?: string[]): string {
  const directives: Record<string, string[]> = {
    ...CONTENT_SECURITY_POLICY,
    'style-src': [...CONTENT_SECURITY_POLICY['style-src'], `'nonce-${nonce}'`],
    ...(frameAncestors ? { 'frame-ancestors': frameAncestors } : {}),
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}
