import { setNonce } from 'get-nonce';

/** The value index.html carries until the gateway replaces it with the response's nonce. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * The style nonce the gateway put in `<meta name="csp-nonce">`, or undefined when the page was
 * not served with one (the dev server, or a page the gateway did not rewrite).
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content.trim();
  if (!value || value === CSP_NONCE_PLACEHOLDER) return undefined;
  return value;
}

/**
 * Modal dialogs lock page scroll with a `<style>` element they insert (react-remove-scroll via
 * react-style-singleton, which reads get-nonce). The CSP allows a `<style>` only with the page's
 * nonce, so that element must carry it.
 */
export function applyCspNonce(doc: Document = document): void {
  const nonce = readCspNonce(doc);
  if (nonce) setNonce(nonce);
}
