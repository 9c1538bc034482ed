import { describe, expect, it } from '@jest/globals';
import { CAPTION_TOO_LARGE, captionLanguage, CaptionFormatError, MAX_CAPTION_BYTES, NO_CUES, NOT_CAPTIONS, NOT_TEXT, parseCaptions } from './caption-format.js';

const vtt = (...cues: string[]) => `WEBVTT\n\n${cues.join('\n\n')}\n`;
const refused = async (input: string | Uint8Array): Promise<string> => {
  try {
    await parseCaptions(input);
  } catch (err) {
    expect(err).toBeInstanceOf(CaptionFormatError);
    return (err as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('caption files', () => {
  it('reads WebVTT cues with their times and keeps the allowed tags', async () => {
    const parsed = await parseCaptions(vtt('intro\n00:00:01.000 --> 00:00:02.500 align:start\n<v Ann>Hello <b>bold <i>and italic</i></b> <u>u</u> <c.loud>c</c> <lang fr>bonjour</lang></v>'));
    expect(parsed.format).toBe('vtt');
    expect(parsed.cues).toEqual([
      { start: 1, end: 2.5, text: '<v Ann>Hello <b>bold <i>and italic</i></b> <u>u</u> <c.loud>c</c> <lang fr>bonjour</lang></v>', plain: 'Hello bold and italic u c bonjour' },
    ]);
    expect(parsed.vtt).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<v Ann>Hello <b>bold <i>and italic</i></b> <u>u</u> <c.loud>c</c> <lang fr>bonjour</lang></v>\n');
  });

  it('strips hostile markup to its text: script, img onerror, unknown tags, ruby and timestamps', async () => {
    const parsed = await parseCaptions(
      vtt('00:00:01.000 --> 00:00:02.000\n<script>alert(1)</script><img src=x onerror=alert(1)>Hi <a href="javascript:x">there</a> <ruby>kan<rt>ka</rt></ruby> <00:00:01.500>now <c.a"b onclick=x>c</c> &lt;b&gt;'),
    );
    const [cue] = parsed.cues;
    expect(cue!.text).not.toMatch(/<(script|img|a|ruby|rt)\b/i);
    expect(cue!.text).not.toMatch(/onerror|onclick|javascript/);
    expect(cue!.text).toContain('alert(1)Hi there kan now');
    // The escaped `<b>` stays escaped text, never a tag.
    expect(cue!.text).toContain('&lt;b&gt;');
    expect(cue!.plain).toBe('alert(1)Hi there kan now c <b>');
  });

  it('keeps a voice name when a hostile tag follows inside the voice', async () => {
    const parsed = await parseCaptions(vtt('00:00:01.000 --> 00:00:02.000\n<v Cook>Today we make marmalade<img src=x onerror=alert(2)></v> <B>upper</B> <b.x>ok</b> <iframe src="javascript:x"'));
    expect(parsed.cues[0]!.text).toBe('<v Cook>Today we make marmalade</v> upper <b>ok</b> ');
  });

  it('keeps nested allowed tags nested and closes them', async () => {
    const parsed = await parseCaptions(vtt('00:00:01.000 --> 00:00:02.000\n<b><i><u>deep</u></i> <i>unclosed'));
    expect(parsed.cues[0]!.text).toBe('<b><i><u>deep</u></i> <i>unclosed</i></b>');
  });

  it('escapes a voice name that tries to break out of its tag', async () => {
    const parsed = await parseCaptions(vtt('00:00:01.000 --> 00:00:02.000\n<v A&B "x" onmouseover=y>words</v>'));
    expect(parsed.cues[0]!.text).toMatch(/^<v A&amp;B "x" onmouseover=y>words<\/v>$/);
  });

  it('accepts a byte order mark and CRLF line ends', async () => {
    const bytes = new TextEncoder().encode('\uFEFFWEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nfirst\r\nline two\r\n\r\n00:00:03.000 --> 00:00:04.000\r\nsecond\r\n');
    const parsed = await parseCaptions(bytes);
    expect(parsed.cues.map((c) => [c.start, c.text])).toEqual([[1, 'first\nline two'], [3, 'second']]);
    expect(parsed.vtt).not.toContain('\r');
  });

  it('converts SRT to WebVTT (comma times, numbered cues, font tags stripped)', async () => {
    const parsed = await parseCaptions('\uFEFF1\r\n00:00:01,000 --> 00:00:02,250\r\n<font color="red">Hello</font> <i>world</i>\r\n\r\n2\r\n00:01:03,500 --> 00:01:05,000\r\nBye\r\n');
    expect(parsed.format).toBe('srt');
    expect(parsed.vtt).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.250\nHello <i>world</i>\n\n00:01:03.500 --> 00:01:05.000\nBye\n');
  });

  it('refuses a bad timestamp with its line', async () => {
    expect(await refused(vtt('00:00:01.000 --> 00:00:02.000\nok', '00:00:xx.000 --> 00:00:03.000\nbad'))).toMatch(/^Line 6: the start time "00:00:xx.000"/);
    expect(await refused(vtt('00:00:05.000 --> 00:00:03.000\nbackwards'))).toBe('Line 3: the cue ends before it starts');
    expect(await refused('1\n00:00:01,000 --> 00:00:0x,000\nhi\n')).toMatch(/^Line 2: the end time/);
  });

  it('refuses what is not a caption file', async () => {
    expect(await refused('just some words\nand more')).toBe(NOT_CAPTIONS);
    expect(await refused(vtt('NOTE nothing here'))).toBe(NO_CUES);
    expect(await refused(new Uint8Array([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff, 0xfe, 0x00]))).toBe(NOT_TEXT);
    expect(await refused(new TextEncoder().encode('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nnul\u0000\n'))).toBe(NOT_TEXT);
    // UTF-16 (what some editors save) is not UTF-8 text.
    expect(await refused(new Uint8Array([0xff, 0xfe, 0x57, 0x00, 0x45, 0x00]))).toBe(NOT_TEXT);
  });

  it('refuses a file over the size limit before reading it', async () => {
    const cue = '00:00:01.000 --> 00:00:02.000\nwords words words words\n\n';
    const huge = new TextEncoder().encode(`WEBVTT\n\n${cue.repeat(Math.ceil(MAX_CAPTION_BYTES / cue.length) + 1)}`);
    expect(huge.byteLength).toBeGreaterThan(MAX_CAPTION_BYTES);
    expect(await refused(huge)).toBe(CAPTION_TOO_LARGE);
  });

  it('normalises language tags and refuses others', () => {
    expect(captionLanguage('en')).toBe('en');
    expect(captionLanguage('pt-br')).toBe('pt-BR');
    expect(captionLanguage('zh-hant')).toBe('zh-Hant');
    expect(captionLanguage('../etc')).toBeNull();
    expect(captionLanguage('e')).toBeNull();
    expect(captionLanguage(['en'])).toBeNull();
  });
});
