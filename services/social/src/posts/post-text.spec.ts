import { describe, expect, it } from '@jest/globals';
import { hashtagsOf, MAX_TAGS, mentionsOf } from './post-text.js';

describe('hashtags and mentions', () => {
  it('finds tags and mentions once each, lower-cased, in order of first use', () => {
    const text = 'Cut #Travel day two with @Ana_B and @bo — #travel #Lisboa2026 @ana_b';
    expect(hashtagsOf(text)).toEqual(['travel', 'lisboa2026']);
    expect(mentionsOf(text)).toEqual(['ana_b', 'bo']);
  });

  it('reads tags in any script', () => {
    expect(hashtagsOf('#café #東京 #привет')).toEqual(['café', '東京', 'привет']);
  });

  it('ignores e-mail addresses, tags glued to words, numbers-only tags and bare signs', () => {
    expect(mentionsOf('write to me@example.com or @ alone')).toEqual([]);
    expect(hashtagsOf('a#b #1st # #_x ##double')).toEqual([]);
  });

  it('reads a mention as the whole username of registration (letters A–Z, digits, dots, underscores)', () => {
    expect(mentionsOf('thanks @x.smith and @Ana_B.Lima')).toEqual(['x.smith', 'ana_b.lima']);
    expect(mentionsOf('hi @ada. And @bob... then @cy.!')).toEqual(['ada', 'bob', 'cy']);
    expect(mentionsOf('(@xen) [@yan], "@zed"; @kai: @lu? @mo! @ned’s')).toEqual(['xen', 'yan', 'zed', 'kai', 'lu', 'mo', 'ned']);
    expect(mentionsOf(`@${'a'.repeat(29)}.`)).toEqual(['a'.repeat(29)]);
  });

  it('refuses hostile mentions: e-mail addresses, doubled signs, glued or foreign letters, cut names', () => {
    for (const text of [
      'mail x.smith@example.com or ada@x.smith',
      '@@x @@x.smith #@ada @#ada',
      'ada.@bob _@cy 9@dee',
      '@adaé @ada.é @ada\u0301 @ａｄａ @аda',
      'é@ada e\u0301@ada',
      `@${'a'.repeat(30)}.b @${'b'.repeat(29)}.cc`,
      '@ @. @.. @...',
    ]) {
      expect([text, mentionsOf(JSON.parse(`"${text}"`))]).toEqual([text, []]);
    }
  });

  it('stops at tags that are too long rather than cutting them', () => {
    expect(hashtagsOf(`#${'a'.repeat(51)}`)).toEqual([]);
    expect(mentionsOf(`@${'a'.repeat(31)}`)).toEqual([]);
  });

  it('keeps at most MAX_TAGS of each', () => {
    const many = Array.from({ length: 40 }, (_, i) => `#t${i} @u${i}`).join(' ');
    expect(hashtagsOf(many)).toHaveLength(MAX_TAGS);
    expect(mentionsOf(many)).toHaveLength(MAX_TAGS);
  });
});
