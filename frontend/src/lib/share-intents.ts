/** Addresses that open another app's share screen (spec 000, section 2 "Share dialogs"). */

/** LinkedIn's share text is cut to this many characters (spec 000, section 9). */
export const LINKEDIN_TEXT_LIMIT = 200;

const q = encodeURIComponent;

export function twitterIntent(text: string, url: string): string {
  return `https://twitter.com/intent/tweet?text=${q(text)}&url=${q(url)}`;
}

export function facebookIntent(url: string): string {
  return `https://www.facebook.com/sharer/sharer.php?u=${q(url)}`;
}

export function linkedInIntent(text: string, url: string): string {
  return `https://www.linkedin.com/shareArticle?mini=true&url=${q(url)}&summary=${q(text.slice(0, LINKEDIN_TEXT_LIMIT))}`;
}

export function emailIntent(subject: string, body: string): string {
  return `mailto:?subject=${q(subject)}&body=${q(body)}`;
}

export function smsIntent(body: string): string {
  return `sms:?&body=${q(body)}`;
}

/** The browser's own share sheet: "unavailable" when there is none or it refused, so the caller offers its dialog. */
export async function nativeShare(data: ShareData): Promise<'shared' | 'cancelled' | 'unavailable'> {
  if (typeof navigator.share !== 'function') return 'unavailable';
  try {
    await navigator.share(data);
    return 'shared';
  } catch (error) {
    return error instanceof DOMException && error.name === 'AbortError' ? 'cancelled' : 'unavailable';
  }
}
