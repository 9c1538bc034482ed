/**
 * The rules of comment controls, without storage: who may comment on an item and which comments
 * wait for approval. The moderators of an item (a timeline's owner and editors, a post's author)
 * are never refused nor held on their own item.
 */
export const WHO_MAY_COMMENT = ['everyone', 'followers', 'nobody'] as const;
export type WhoMayComment = (typeof WHO_MAY_COMMENT)[number];

export interface CommentRules {
  whoMayComment: WhoMayComment;
  holdAll: boolean;
  /** Lower-case, trimmed, without duplicates. */
  heldWords: string[];
  holdNewAccountsDays: number | null;
}

export const OPEN_COMMENTS: CommentRules = { whoMayComment: 'everyone', holdAll: false, heldWords: [], holdNewAccountsDays: null };

export const COMMENTS_OFF = 'Comments are turned off for this';
export const FOLLOWERS_ONLY = 'Only followers of the creator can comment on this';

/** Who is commenting, as the rules need them. */
export interface Commenter {
  moderator: boolean;
  /** Follows the timeline's owner or the post's author. */
  follower: boolean;
  /** When their account was registered; null when not known. */
  registeredAt: Date | null;
}

/** Why the commenter may not comment (a 403's message), or null when they may. */
export function refusalOf(rules: CommentRules, who: Pick<Commenter, 'moderator' | 'follower'>): string | null {
  if (who.moderator) return null;
  if (rules.whoMayComment === 'nobody') return COMMENTS_OFF;
  if (rules.whoMayComment === 'followers' && !who.follower) return FOLLOWERS_ONLY;
  return null;
}

const letters = /[\p{L}\p{N}_]/u;

/** Whether `text` holds `word` on its own (not inside a longer word), case-insensitively. */
export function containsWord(text: string, word: string): boolean {
  const haystack = text.toLocaleLowerCase();
  const needle = word.toLocaleLowerCase();
  if (needle === '') return false;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : [...haystack.slice(0, at)].at(-1)!;
    const after = [...haystack.slice(at + needle.length)][0] ?? '';
    const wordBoundaryBefore = before === '' || !letters.test(before) || !letters.test([...needle][0]!);
    const wordBoundaryAfter = after === '' || !letters.test(after) || !letters.test([...needle].at(-1)!);
    if (wordBoundaryBefore && wordBoundaryAfter) return true;
  }
  return false;
}

const DAY_MS = 86_400_000;

/** Whether a comment waits for the item's moderators to approve it. */
export function mustHold(rules: CommentRules, who: Pick<Commenter, 'moderator' | 'registeredAt'>, content: string, now = new Date()): boolean {
  if (who.moderator) return false;
  if (rules.holdAll) return true;
  if (rules.heldWords.some((word) => containsWord(content, word))) return true;
  if (rules.holdNewAccountsDays !== null && who.registeredAt !== null && now.getTime() - who.registeredAt.getTime() < rules.holdNewAccountsDays * DAY_MS) return true;
  return false;
}

/** A word list as stored: trimmed, lower-case, no blanks or duplicates, in the order given. */
export function normalizeWords(words: readonly string[]): string[] {
  return [...new Set(words.map((w) => w.trim().toLocaleLowerCase()).filter((w) => w !== ''))];
}
