/**
 * Where a text matches a query, ignoring case and accents as the server does: each query word
 * matches at the start of a word of the text (so "sup" marks "Superman"). Quoted phrases count
 * word by word; excluded words (-word), `or`, and the leading # or @ are not marked.
 */
export function queryTerms(query: string): string[] {
  const words = query
    .replace(/"/g, ' ')
    .split(/\s+/)
    .filter((word) => word && !word.startsWith('-') && word.toLowerCase() !== 'or')
    .map((word) => fold(word.replace(/^[#@]/, '')))
    .map((word) => word.replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter(Boolean);
  // Longest first, so "superman" wins over "super" where both match.
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** Lower case without diacritics, one output character per input code point where possible. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export interface Segment {
  text: string;
  match: boolean;
}

/** The text cut into matched and unmatched runs. */
export function highlightSegments(text: string, terms: readonly string[]): Segment[] {
  if (terms.length === 0 || !text) return [{ text, match: false }];
  // Folded text with, for each folded character, the index of the original code point it came from.
  const chars = Array.from(text);
  let folded = '';
  const origin: number[] = [];
  chars.forEach((char, i) => {
    const f = fold(char);
    folded += f;
    for (let k = 0; k < f.length; k++) origin.push(i);
  });
  const marked = new Array<boolean>(chars.length).fill(false);
  for (const term of terms) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(term, from);
      if (at < 0) break;
      const startsWord = at === 0 || !/[\p{L}\p{N}_]/u.test(folded[at - 1]!);
      if (startsWord) for (let k = at; k < at + term.length; k++) marked[origin[k]!] = true;
      from = at + 1;
    }
  }
  const segments: Segment[] = [];
  chars.forEach((char, i) => {
    const last = segments.at(-1);
    if (last && last.match === marked[i]) last.text += char;
    else segments.push({ text: char, match: marked[i]! });
  });
  return segments;
}

/** A short excerpt of a long text around its first match, for result lines. */
export function excerpt(text: string, terms: readonly string[], length = 160): string {
  if (text.length <= length) return text;
  const folded = fold(text);
  const first = Math.min(...terms.map((term) => folded.indexOf(term)).filter((at) => at >= 0), Number.MAX_SAFE_INTEGER);
  if (first === Number.MAX_SAFE_INTEGER || first < length / 2) return `${text.slice(0, length).trimEnd()}…`;
  const start = Math.max(0, first - Math.floor(length / 3));
  return `…${text.slice(start, start + length).trim()}…`;
}
