import { describe, expect, it } from '@jest/globals';
import { chapterAt, chaptersFromText, CHAPTER_TITLE_MAX, formatClockTime, parseClockTime, timesInText } from './chapters';

describe('parseClockTime', () => {
  it.each([
    ['0:00', 0],
    ['1:23', 83],
    ['01:23', 83],
    ['59:59', 3599],
    ['75:00', 4500],
    ['1:02:03', 3723],
    ['01:02:03', 3723],
    [' 2:00 ', 120],
  ])('%s is %d seconds', (text, seconds) => {
    expect(parseClockTime(text)).toBe(seconds);
  });

  it.each(['', '1', '1:2', '1:60', '123:00', '1:60:00', '1:02:60', '1:2:03', 'a:bc', '1:23:', ':23', '-1:23', '1:23.5', '1::23'])('%j is not a time', (text) => {
    expect(parseClockTime(text)).toBeNull();
  });
});

describe('formatClockTime', () => {
  it.each([
    [0, '0:00'],
    [83, '1:23'],
    [83.9, '1:23'],
    [3723, '1:02:03'],
    [-4, '0:00'],
    [Number.NaN, '0:00'],
  ])('%d seconds read %s', (seconds, text) => {
    expect(formatClockTime(seconds)).toBe(text);
  });

  it('reads back what it writes', () => {
    for (const seconds of [0, 9, 60, 599, 3600, 35999]) expect(parseClockTime(formatClockTime(seconds))).toBe(seconds);
  });
});

describe('chaptersFromText', () => {
  it('reads one chapter per line that begins with its time', () => {
    const text = ['A walk up the hill.', '', '0:00 Intro', '1:23 - The climb', '• 2:05 – Summit', '[01:02:03] The long way down', 'Thanks for watching 3:00'].join('\n');
    expect(chaptersFromText(text)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 83, title: 'The climb' },
      { start: 125, title: 'Summit' },
      { start: 3723, title: 'The long way down' },
    ]);
  });

  it('takes CRLF and CR line ends, separators and brackets', () => {
    expect(chaptersFromText('0:00: Start\r\n(0:30) | Middle\r1:00. End')).toEqual([
      { start: 0, title: 'Start' },
      { start: 30, title: 'Middle' },
      { start: 60, title: 'End' },
    ]);
  });

  it('sorts by time and keeps the first title of a second', () => {
    expect(chaptersFromText('2:00 Later\n0:10 First\n2:00 Again')).toEqual([
      { start: 10, title: 'First' },
      { start: 120, title: 'Later' },
    ]);
  });

  it('skips lines without a title or with a time that is not one', () => {
    expect(chaptersFromText('0:00\n1:75 Bad seconds\n1:2 Short\n0:05   \n0:10 Kept')).toEqual([{ start: 10, title: 'Kept' }]);
  });

  it('drops chapters at or past the end of the video when its length is known', () => {
    expect(chaptersFromText('0:00 A\n0:30 B\n1:00 C', 60)).toEqual([
      { start: 0, title: 'A' },
      { start: 30, title: 'B' },
    ]);
    expect(chaptersFromText('0:00 A\n1:00 C', 0)).toHaveLength(2);
  });

  it('cuts long titles, folds spaces and removes control characters', () => {
    const [chapter] = chaptersFromText(`0:00 ${'x'.repeat(500)}`);
    expect(chapter?.title).toHaveLength(CHAPTER_TITLE_MAX);
    expect(chaptersFromText('0:00 a\u0007b   c\td')).toEqual([{ start: 0, title: 'ab c d' }]);
  });

  it('keeps markup as text (it is rendered as text)', () => {
    expect(chaptersFromText('0:00 <img src=x onerror=alert(1)>')).toEqual([{ start: 0, title: '<img src=x onerror=alert(1)>' }]);
  });

  it('gives nothing for no text, and stops at 100 chapters', () => {
    expect(chaptersFromText(null)).toEqual([]);
    expect(chaptersFromText('')).toEqual([]);
    const many = Array.from({ length: 300 }, (_, i) => `${formatClockTime(i)} Part ${i}`).join('\n');
    expect(chaptersFromText(many)).toHaveLength(100);
  });
});

describe('chapterAt', () => {
  const chapters = [
    { start: 10, title: 'A' },
    { start: 30, title: 'B' },
  ];
  it('is the last chapter started', () => {
    expect(chapterAt(chapters, 0)).toBeNull();
    expect(chapterAt(chapters, 10)?.title).toBe('A');
    expect(chapterAt(chapters, 29.9)?.title).toBe('A');
    expect(chapterAt(chapters, 500)?.title).toBe('B');
    expect(chapterAt([], 5)).toBeNull();
  });
});

describe('timesInText', () => {
  it('cuts a comment at the times written in it', () => {
    expect(timesInText('Look at 1:23, and again at 01:02:03!')).toEqual([
      { text: 'Look at ' },
      { text: '1:23', seconds: 83 },
      { text: ', and again at ' },
      { text: '01:02:03', seconds: 3723 },
      { text: '!' },
    ]);
  });

  it('finds a time at the very start and end', () => {
    expect(timesInText('0:42')).toEqual([{ text: '0:42', seconds: 42 }]);
    expect(timesInText('2:00 wow')).toEqual([{ text: '2:00', seconds: 120 }, { text: ' wow' }]);
  });

  it('leaves text that is not a time alone', () => {
    for (const text of ['no times here', 'ratio 16:9', 'at 12:30pm', 'at 9:15 am', 'v1:23', '1:23:4', '3.1:20', '10:61', 'a1:00b', '123:45', 'version 2:30.5']) {
      expect(timesInText(text)).toEqual([{ text }]);
    }
    expect(timesInText('')).toEqual([{ text: '' }]);
  });

  it('leaves a time past the video as text', () => {
    expect(timesInText('0:30 and 5:00', 60)).toEqual([{ text: '0:30', seconds: 30 }, { text: ' and 5:00' }]);
  });
});
