import { beforeEach, describe, expect, it } from '@jest/globals';
import { captionPreference, languageName, pickLanguage, rememberCaptionPreference } from './caption-preferences';

describe('caption preferences', () => {
  beforeEach(() => window.localStorage.clear());

  it('are off with no language until the person chooses, then remembered', () => {
    expect(captionPreference()).toEqual({ on: false, language: null });
    rememberCaptionPreference({ on: true, language: 'fr' });
    expect(captionPreference()).toEqual({ on: true, language: 'fr' });
    rememberCaptionPreference({ on: false, language: 'fr' });
    expect(captionPreference()).toEqual({ on: false, language: 'fr' });
    rememberCaptionPreference({ on: false, language: null });
    expect(captionPreference()).toEqual({ on: false, language: null });
  });

  it('start on when the system asks for reduced motion and nothing was chosen here, and the choice wins after', () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)', media: query })) as unknown as typeof window.matchMedia;
    try {
      expect(captionPreference()).toEqual({ on: true, language: null });
      rememberCaptionPreference({ on: false, language: null });
      expect(captionPreference()).toEqual({ on: false, language: null });
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('pick the remembered language, else the browser\'s, else the first track', () => {
    expect(pickLanguage([], 'en', ['en'])).toBeNull();
    expect(pickLanguage(['de', 'fr'], 'fr', ['de'])).toBe('fr');
    expect(pickLanguage(['de', 'pt-BR'], 'pt', [])).toBe('pt-BR');
    expect(pickLanguage(['de', 'en'], null, ['en-GB', 'de'])).toBe('en');
    expect(pickLanguage(['ja', 'ko'], 'fr', ['es'])).toBe('ja');
  });

  it('name a language in its own language', () => {
    expect(languageName('fr')).toBe('Français');
    expect(languageName('en')).toBe('English');
    expect(languageName('not a tag!')).toBe('not a tag!');
  });
});
