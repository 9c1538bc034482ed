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
  'follow_request',
  'invitation',
  'collaborator_added',
  'ownership_transferred',
  'video_processed',
  'video_failed',
  'export_ready',
  'comments_held',
  'comment_approved',
  'moderation',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The switches a person has, one pair (in-app, push) per type. */
export const NOTIFICATION_TYPES = ['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The preference type of each kind; moderation notices (about one's own report or content) have no switch. */
export const TYPE_OF: Record<Exclude<NotificationKind, 'moderation'>, NotificationType> = {
  like: 'likes',
  comment: 'comments',
  reply: 'comments',
  mention: 'mentions',
  follow: 'follows',
  follow_request: 'follows',
  invitation: 'collaboration',
  collaborator_added: 'collaboration',
  ownership_transferred: 'collaboration',
  video_processed: 'videos',
  video_failed: 'videos',
  export_ready: 'exports',
  comments_held: 'comments',
  comment_approved: 'comments',
};

/** What a notification is about. */
export type TargetType = 'post' | 'timeline' | 'video' | 'comment' | 'user' | 'invitation' | 'export' | 'follow_requests' | 'held_comments' | 'moderation';

/** Activities of the same kind on the same target within this window are one entry (Mastodon's grouping). */
export const GROUP_WINDOW_MS = 12 * 60 * 60 * 1000;

/**
 * Kinds one person can repeat at will by toggling (follow/unfollow, like/unlike): the same person
 * doing it again to the same thing tells its owner at most once in this window, in the list and
 * by push (the undo still takes back what is unread).
 */
export const TOLD_ONCE_A_DAY: ReadonlySet<NotificationKind> = new Set(['follow', 'like']);
export const TOLD_ONCE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Kinds grouped by the timeline their target is on rather than by the target: the processing
 * outcomes of a person's uploads, so a batch of videos is one entry ("3 of your videos in "Trip"
 * are ready to watch") and does not bury what people did.
 */
export const GROUPED_BY_TIMELINE: ReadonlySet<NotificationKind> = new Set(['video_processed', 'video_failed']);

export const groupKeyOf = (kind: NotificationKind, target: { type: TargetType; id: string; timelineId: string | null }): string =>
  GROUPED_BY_TIMELINE.has(kind) && target.timelineId ? `${kind}:timeline:${target.timelineId}` : `${kind}:${target.type}:${target.id}`;

/** Where a notification leads in the web app. */
export function linkOf(target: { type: TargetType; id: string; timelineId: string | null; ownerId?: string | null }): string {
  switch (target.type) {
    case 'timeline':
      return `/watch/${target.id}`;
    case 'video':
    case 'comment':
      return target.timelineId ? `/watch/${target.timelineId}${target.type === 'video' ? `?video=${target.id}` : ''}` : '/';
    case 'post':
      return `/post/${target.id}`;
    case 'user':
      return `/profile/${target.id}`;
    case 'invitation':
      return `/invite/${target.id}`;
    case 'held_comments':
      // The approval queue: a timeline's in its studio, a post's under the post.
      return target.timelineId ? `/timeline/${target.timelineId}` : `/post/${target.id}`;
    case 'follow_requests':
      // The owner's list of pending requests, where each is approved or declined.
      return '/follow-requests';
    case 'moderation':
      // An author's notice: what moderators did about their content, where they may appeal; a reporter's: the list itself.
      return target.ownerId ? '/moderation/notices' : '/notifications';
    case 'export':
      // The app's page of the export starts its download: the file needs the signed link
      // GET /api/exports/{id} hands out to a signed-in caller, which a plain link cannot carry.
      return `/exports/${target.id}`;
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
  moderation: 'you',
  follow_requests: 'you',
  held_comments: 'your post',
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

export interface DescribeInput {
  actorNames: readonly string[];
  /** People who acted; for system notifications, the activities (videos processed). */
  count: number;
  targetType: TargetType;
  /** The timeline's name for a timeline or an invitation, the file's for a video, the export's name. */
  title: string | null;
  /** The name of the timeline the target is on, when known. */
  timelineTitle?: string | null;
}

const quoted = (text: string | null | undefined): string => (text ? ` "${text}"` : '');

/** The sentence of a notification. */
export function describe(kind: NotificationKind, input: DescribeInput): string {
  const who = actorPhrase(input.actorNames, input.count);
  const titled = quoted(input.title);
  const inTimeline = input.timelineTitle ? ` in${quoted(input.timelineTitle)}` : '';
  const target =
    input.targetType === 'timeline'
      ? `your timeline${titled}`
      : input.targetType === 'video'
        ? `your video${titled || inTimeline}`
        : TARGET_WORDS[input.targetType];
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
    case 'follow_request':
      return `${who} asked to follow you`;
    case 'invitation':
      return `${who} invited you to collaborate on${titled || ' a timeline'}`;
    case 'collaborator_added':
      return `${who} added you as a collaborator on${titled || ' a timeline'}`;
    case 'ownership_transferred':
      return `${who} made you the owner of${titled || ' a timeline'}`;
    case 'video_processed':
      return input.count > 1 ? `${input.count} of your videos${inTimeline} are ready to watch` : `Your video${titled || inTimeline} is ready to watch`;
    case 'video_failed':
      return input.count > 1 ? `${input.count} of your videos${inTimeline} could not be processed` : `Your video${titled || inTimeline} could not be processed`;
    case 'export_ready':
      return `Your export${titled} is ready to download`;
    case 'moderation':
      // The sentence the moderation desk wrote (its outcome and reason), kept as the entry's title.
      return input.title ?? 'Moderators reviewed your report';
    case 'comments_held':
      return `${who} commented on ${input.title ? `your timeline${titled}` : target}: waiting for your approval`;
    case 'comment_approved':
      return `Your comment${input.title ? ` on${titled}` : ''} was approved`;
  }
}
