import { parseText, parseVTTTimestamp, tokenizeVTTCue, type VTTCue, type VTTNode } from 'media-captions';

/** What a caption file may weigh: hours of dialogue fit in far less. */
export const MAX_CAPTION_BYTES = 1024 * 1024;
/** Cues one track may hold (one every half second for over two hours). */
export const MAX_CUES = 20_000;
/** Characters of one cue's text, markup included. */
export const MAX_CUE_CHARS = 1_000;

export const CAPTION_TOO_LARGE = `The caption file is too large. Maximum size is ${MAX_CAPTION_BYTES / 1024 / 1024} MB`;
export const NOT_TEXT = 'The caption file is not text: save it as UTF-8 WebVTT (.vtt) or SRT (.srt)';
export const NOT_CAPTIONS = 'The file is neither WebVTT (it starts with WEBVTT) nor SRT (numbered cues with 00:00:01,000 --> 00:00:02,000 times)';
export const NO_CUES = 'The caption file has no cues';

/** A caption file refused, with the reason (and the line, when one line is at fault). */
export class CaptionFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `Line ${line}: ${message}`);
    this.name = 'CaptionFormatError';
  }
}

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  /** The cue text as WebVTT markup, only `<b> <i> <u> <c> <v> <lang>` kept (entities escaped). */
  text: string;
  /** The words alone: no markup, lines joined by a space. */
  plain: string;
}

export interface ParsedCaptions {
  format: 'vtt' | 'srt';
  cues: Cue[];
  /** The track as a WebVTT file made of the sanitised cues (no header text, regions or settings). */
  vtt: string;
}

const BOM = '\uFEFF';
/** An SRT timing line, loosely: its times are checked later, with a clear message. */
const SRT_TIMING = /^\s*[\d:,.]+\s*-->/;
const CLASS_NAME = /^[A-Za-z0-9_-]{1,32}$/;
/** Any tag but WebVTT's cue tags (b i u c v lang ruby rt, and timestamps), opening or closing. */
const UNKNOWN_TAG = /<(?!\/?(?:b|i|u|c|v|lang|ruby|rt)(?=[\s.>])|\d)[^>]*>?/g;
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$/;

/** Bytes to text: UTF-8 only (a leading BOM dropped), and no control characters but tab and line ends. */
export function decodeCaptionBytes(bytes: Uint8Array): string {
  if (bytes.byteLength > MAX_CAPTION_BYTES) throw new CaptionFormatError(CAPTION_TOO_LARGE);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CaptionFormatError(NOT_TEXT);
  }
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) throw new CaptionFormatError(NOT_TEXT);
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** WebVTT when it starts with WEBVTT; SRT when its first block has a number and SRT times. */
export function detectFormat(text: string): 'vtt' | 'srt' {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(body)) return 'vtt';
  const lines = body.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  if (lines.length >= 2 && (/^\s*\d+\s*$/.test(lines[0]!) ? SRT_TIMING.test(lines[1]!) : SRT_TIMING.test(lines[0]!))) return 'srt';
  throw new CaptionFormatError(NOT_CAPTIONS);
}

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** An annotation (a voice's name) inside a start tag: no `>` or `&` that could end or confuse it. */
const escapeAnnotation = (text: string): string => escapeText(text.replace(/[\r\n]+/g, ' ')).trim().slice(0, 100);

/**
 * The cue's nodes as WebVTT markup: b, i, u, c (with safe class names), v (voice) and lang kept;
 * ruby, timestamps and every unknown tag dropped, their text kept as text.
 */
function markup(nodes: readonly VTTNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return escapeText(node.data);
      const inner = markup(node.children);
      switch (node.type) {
        case 'b':
        case 'i':
        case 'u':
          return `<${node.type}>${inner}</${node.type}>`;
        case 'c': {
          const classes = (node.class ?? '').split(/\s+/).filter((name) => CLASS_NAME.test(name));
          return `<c${classes.map((name) => `.${name}`).join('')}>${inner}</c>`;
        }
        case 'v': {
          const voice = escapeAnnotation(node.voice ?? '');
          return voice ? `<v ${voice}>${inner}</v>` : inner;
        }
        case 'lang': {
          const lang = (node as { lang?: string }).lang ?? '';
          return LANGUAGE_TAG.test(lang) ? `<lang ${lang}>${inner}</lang>` : inner;
        }
        case 'rt':
          return '';
        default:
          return inner;
      }
    })
    .join('');
}

function plainText(nodes: readonly VTTNode[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.data : node.type === 'rt' ? '' : plainText(node.children))).join('');
}

/** `hh:mm:ss.mmm`, as WebVTT writes times. */
export function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * Every timing line's times are readable and the end is not before the start: the parser skips a
 * cue with a bad time silently, and a file with a cue gone missing is worse than a clear refusal.
 */
function checkTimings(lines: readonly string[], format: 'vtt' | 'srt'): void {
  lines.forEach((line, at) => {
    if (!line.includes('-->')) return;
    const [startText = '', rest = ''] = line.split('-->');
    const endText = rest.trim().split(/\s+/)[0] ?? '';
    const read = (value: string) => parseVTTTimestamp(format === 'srt' ? value.trim().replace(',', '.') : value.trim());
    const start = read(startText);
    const end = read(endText);
    if (start === null || start === undefined || !Number.isFinite(start)) throw new CaptionFormatError(`the start time "${startText.trim()}" is not a time like 00:01:02.500`, at + 1);
    if (end === null || end === undefined || !Number.isFinite(end)) throw new CaptionFormatError(`the end time "${endText}" is not a time like 00:01:02.500`, at + 1);
    if (end < start) throw new CaptionFormatError('the cue ends before it starts', at + 1);
  });
}

/**
 * A caption file (WebVTT or SRT, UTF-8, BOM and CRLF accepted) parsed by `media-captions`,
 * checked, and rewritten as a clean WebVTT track: cue text keeps only `<b> <i> <u> <c> <v> <lang>`,
 * everything else (HTML, `<script>`, `<img onerror>`, SRT's `<font>`) is stripped to its text.
 */
export async function parseCaptions(input: string | Uint8Array): Promise<ParsedCaptions> {
  const text = typeof input === 'string' ? stripBom(input) : decodeCaptionBytes(input);
  if (typeof input === 'string' && Buffer.byteLength(text) > MAX_CAPTION_BYTES) throw new CaptionFormatError(CAPTION_TOO_LARGE);
  const format = detectFormat(text);
  const lines = text.split(/\r\n|\r|\n/);
  checkTimings(lines, format);
  const parsed = await parseText(lines.join('\n'), { type: format, strict: false, errors: true });
  const fatal = parsed.errors.find((error) => error.code === 1 || error.code === 2 || error.code === 4);
  if (fatal) throw new CaptionFormatError(fatal.message.replace(/ on line \d+$/, ''), fatal.line);
  if (parsed.cues.length > MAX_CUES) throw new CaptionFormatError(`The caption file has more than ${MAX_CUES} cues`);

  const cues: Cue[] = [];
  for (const cue of parsed.cues as VTTCue[]) {
    if (cue.text.length > MAX_CUE_CHARS) throw new CaptionFormatError(`A cue at ${vttTime(cue.startTime)} is longer than ${MAX_CUE_CHARS} characters`);
    // Tags other than WebVTT's own go before the tokenizer sees them: an unknown tag's attributes
    // must not leak into a neighbour's annotation (it gave `<img src=x>`'s to an open `<v>`).
    cue.text = cue.text.replace(UNKNOWN_TAG, '');
    const nodes = tokenizeVTTCue(cue);
    // A blank line would end the cue early: lines of only spaces go.
    const text = markup(nodes).split('\n').filter((line) => line.trim() !== '').join('\n');
    const plain = plainText(nodes).replace(/\s+/g, ' ').trim();
    if (plain === '') continue;
    cues.push({ start: cue.startTime, end: cue.endTime, text, plain });
  }
  if (cues.length === 0) throw new CaptionFormatError(NO_CUES);
  cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return { format, cues, vtt: toVtt(cues) };
}

export function toVtt(cues: readonly Pick<Cue, 'start' | 'end' | 'text'>[]): string {
  return `WEBVTT\n\n${cues.map((cue) => `${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${cue.text}\n`).join('\n')}`;
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** A BCP 47 language tag as stored: `en`, `pt-BR`, `zh-Hant`; null when it is not one. */
export function captionLanguage(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 35 || !LANGUAGE_TAG.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}
