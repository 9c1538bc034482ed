/**
 * What notifies whom: the kinds of notification, the preference type each belongs to, how one is
 * grouped, where it leads and how it reads.
 */
export const NOTIFICATION_KINDS = [
  'like',
  'comment',
  'reply',
  'mention',
  'follow',
  'invitation',
  'collaborator_added',
  'ownership_transferred',
  'video_processed',
  'video_failed',
  'export_ready',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The switches a person has, one pair (in-app, push) per type. */
export const NOTIFICATION_TYPES = ['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const TYPE_OF: Record<NotificationKind, NotificationType> = {
  like: 'likes',
  comment: 'comments',
  reply: 'comments',
  mention: 'mentions',
  follow: 'follows',
  invitation: 'collaboration',
  collaborator_added: 'collaboration',
  ownership_transferred: 'collaboration',
  video_processed: 'videos',
  video_failed: 'videos',
  export_ready: 'exports',
};

/** What a notification is about. */
export type TargetType = 'post' | 'timeline' | 'video' | 'comment' | 'user' | 'invitation' | 'export';

/** Activities of the same kind on the same target within this window are one entry (Mastodon's grouping). */
export const GROUP_WINDOW_MS = 12 * 60 * 60 * 1000;

export const groupKeyOf = (kind: NotificationKind, targetType: TargetType, targetId: string): string => `${kind}:${targetType}:${targetId}`;

/** Where a notification leads in the web app. */
export function linkOf(target: { type: TargetType; id: string; timelineId: string | null; ownerId?: string | null }): string {
  switch (target.type) {
    case 'timeline':
      return `/watch/${target.id}`;
    case 'video':
    case 'comment':
      return target.timelineId ? `/watch/${target.timelineId}${target.type === 'video' ? `?video=${target.id}` : ''}` : '/';
    case 'post':
      // Posts have no page of their own: they are read on their author's profile.
      return target.ownerId ? `/profile/${target.ownerId}` : '/';
    case 'user':
      return `/profile/${target.id}`;
    case 'invitation':
      return `/invite/${target.id}`;
    case 'export':
      // The file needs the signed link GET /api/exports/{id} hands out; the app asks for it
      // (the target is the export) from the timeline's page.
      return target.timelineId ? `/watch/${target.timelineId}` : '/';
  }
}

const TARGET_WORDS: Record<TargetType, string> = {
  post: 'your post',
  timeline: 'your timeline',
  video: 'your video',
  comment: 'your comment',
  user: 'you',
  invitation: 'a timeline',
  export: 'your export',
};

/** "Ana", "Ana and Ben", "Ana, Ben and Cy", "Ana, Ben and 12 others". */
export function actorPhrase(names: readonly string[], count: number): string {
  const shown = names.slice(0, count > 3 ? 2 : 3);
  if (shown.length === 0) return 'Someone';
  const others = count - shown.length;
  if (others <= 0) {
    return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  }
  return `${shown.join(', ')} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** The sentence of a notification. */
export function describe(kind: NotificationKind, input: { actorNames: readonly string[]; count: number; targetType: TargetType; title: string | null }): string {
  const who = actorPhrase(input.actorNames, input.count);
  const titled = input.title ? ` "${input.title}"` : '';
  const target = `${TARGET_WORDS[input.targetType]}${input.targetType === 'timeline' || input.targetType === 'video' ? titled : ''}`;
  switch (kind) {
    case 'like':
      return `${who} liked ${target}`;
    case 'comment':
      return `${who} commented on ${target}`;
    case 'reply':
      return `${who} replied to your comment`;
    case 'mention':
      return `${who} mentioned you`;
    case 'follow':
      return `${who} followed you`;
    case 'invitation':
      return `${who} invited you to collaborate on${titled || ' a timeline'}`;
    case 'collaborator_added':
      return `${who} added you as a collaborator on${titled || ' a timeline'}`;
    case 'ownership_transferred':
      return `${who} made you the owner of${titled || ' a timeline'}`;
    case 'video_processed':
      return `Your video${titled} is ready to watch`;
    case 'video_failed':
      return `Your video${titled} could not be processed`;
    case 'export_ready':
      return `Your export${titled} is ready to download`;
  }
}
