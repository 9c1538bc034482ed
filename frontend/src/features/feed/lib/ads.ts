/**
 * Sponsored blocks in the feed (spec 000, sections 2 and 9): one before every 4th item, i.e.
 * before the items at 0-based indices 4, 8, 12, ... (the top of the feed has its own banner).
 * A hero block where the index is divisible by 12, a preview block where it is divisible by 8,
 * a featured block otherwise.
 */

export const AD_EVERY = 4;
export const HERO_EVERY = 12;
export const PREVIEW_EVERY = 8;

export type AdKind = 'hero' | 'preview' | 'featured';

/** The kind of block shown before the item at `index`, or null when none is. */
export function adBefore(index: number): AdKind | null {
  if (index <= 0 || index % AD_EVERY !== 0) return null;
  if (index % HERO_EVERY === 0) return 'hero';
  if (index % PREVIEW_EVERY === 0) return 'preview';
  return 'featured';
}

/** What each block promotes: our own features, each with an action that really does it. */
export interface Promotion {
  id: string;
  title: string;
  text: string;
  action: { label: string; to: string } | null;
}

export const PROMOTIONS: Record<AdKind | 'banner', Promotion> = {
  banner: {
    id: 'create-timeline-banner',
    title: 'Turn your clips into a story',
    text: 'Collect your videos and photos into a timeline and share it with one link.',
    action: { label: 'Create Timeline', to: '/studio?create=true' },
  },
  hero: {
    id: 'create-timeline',
    title: 'Start your next timeline',
    text: 'A trip, a project, a big day: put the moments in order and let people watch them as one story.',
    action: { label: 'Create Timeline', to: '/studio?create=true' },
  },
  preview: {
    id: 'invite-collaborator',
    title: 'Make it together',
    text: 'Invite a collaborator to one of your timelines so they can add their own videos. Open a timeline in the studio and choose Invite.',
    action: { label: 'Open Creator Studio', to: '/studio' },
  },
  featured: {
    id: 'install-app',
    title: 'Timeliner on your home screen',
    text: "Install the app for a full-screen player and quicker uploads: in your browser's menu, choose 'Install app' or 'Add to Home Screen'.",
    action: null,
  },
};

const DISMISSED_KEY = 'feed-dismissed-promotions';

export function readDismissed(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === 'string') : [];
  } catch {
    return [];
  }
}

export function writeDismissed(ids: readonly string[]): void {
  try {
    window.localStorage.setItem(DISMISSED_KEY, JSON.stringify(ids));
  } catch {
    // Storage full or blocked: the block comes back next visit.
  }
}
