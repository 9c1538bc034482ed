import { describe, expect, it } from '@jest/globals';
import { getNonce } from 'get-nonce';
import { applyCspNonce, CSP_NONCE_PLACEHOLDER, readCspNonce } from './csp-nonce';

function page(content?: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  if (content !== undefined) {
    const meta = doc.createElement('meta');
    meta.name = 'csp-nonce';
    meta.content = content;
    doc.head.append(meta);
  }
  return doc;
}

describe('CSP style nonce', () => {
  it('reads the nonce the gateway wrote into the page', () => {
    expect(readCspNonce(page('r4nd0m=='))).toBe('r4nd0m==');
  });

  it('ignores a missing meta tag, an empty value and the unreplaced placeholder', () => {
    expect(readCspNonce(page())).toBeUndefined();
    expect(readCspNonce(page(''))).toBeUndefined();
    expect(readCspNonce(page(CSP_NONCE_PLACEHOLDER))).toBeUndefined();
  });

  it('hands the nonce to get-nonce, which the dialog scroll lock reads for its <style>', () => {
    applyCspNonce(page('abc123'));
    expect(getNonce()).toBe('abc123');
  });
});
