/**
 * The person's captions choice on this device: whether captions show by default, and in which
 * language. Turning captions on or off in the player remembers it.
 */
const ON_KEY = 'captions-on';
const LANGUAGE_KEY = 'captions-language';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
}

export interface CaptionPreference {
  on: boolean;
  language: string | null;
}

/**
 * Whether the system asks for captions before the person has chosen on this device. No browser
 * exposes the system's captions setting to a page; asking for reduced motion is the nearest signal
 * it does expose, so captions start on for it. Settings › Captions and the player's CC menu decide
 * from then on.
 */
function systemAsksForCaptions(): boolean {
  try {
    return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  } catch {
    return false;
  }
}

export function captionPreference(): CaptionPreference {
  const on = read(ON_KEY);
  return { on: on === null ? systemAsksForCaptions() : on === '1', language: read(LANGUAGE_KEY) };
}

export function rememberCaptionPreference(preference: CaptionPreference): void {
  write(ON_KEY, preference.on ? '1' : '0');
  write(LANGUAGE_KEY, preference.language);
}

/** The track to show: the remembered language, else the browser's language, else the first. */
export function pickLanguage(available: readonly string[], preferred: string | null, browser: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): string | null {
  if (available.length === 0) return null;
  const base = (tag: string) => tag.split('-')[0]!.toLowerCase();
  for (const wanted of [preferred, ...browser]) {
    if (!wanted) continue;
    const exact = available.find((tag) => tag.toLowerCase() === wanted.toLowerCase());
    if (exact) return exact;
    const near = available.find((tag) => base(tag) === base(wanted));
    if (near) return near;
  }
  return available[0]!;
}

/** "English", "Português (Brasil)": a language tag named in its own language, else the tag. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : tag;
  } catch {
    return tag;
  }
}
