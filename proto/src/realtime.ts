/**
 * Messages bound for browsers over the gateway's `/ws`. They travel as NATS broadcasts (no
 * durability: a browser that is not connected does not need them later) on
 * `realtime.timeline.<timelineId>` or `realtime.user.<userId>`, and their payload is the UTF-8 JSON
 * text the browser receives, in the shapes of the product spec, so the gateway forwards them
 * without re-encoding. Being browser-facing JSON, they are described here rather than in .proto.
 */

export interface VideoUploadStarted {
  type: 'video_upload_started';
  timelineId: string;
  video: { id: string; originalName: string };
}

export interface VideoProcessingProgress {
  type: 'video_processing_progress';
  timelineId: string;
  videoId: string;
  /** `progress` is a percentage, 0–100. */
  progress: { stage: string; progress: number; message: string };
}

export interface VideoProcessingCompleted {
  // The spec's studio listens for both spellings.
  type: 'video_processing_completed' | 'video_processing_complete';
  timelineId: string;
  video: { id: string };
}

export interface VideoProcessingError {
  type: 'video_processing_error';
  timelineId: string;
  videoId: string;
  error: string;
}

export interface MediaProcessingCompleted {
  type: 'media_processing_completed';
  timelineId: string;
  mediaId: string;
  mediaType: string;
}

export interface MediaProcessingError {
  type: 'media_processing_error';
  timelineId: string;
  mediaId: string;
  mediaType: string;
  error: string;
}

/** A person shown beside a notification. */
export interface NotificationActor {
  id: string;
  displayName: string;
  username: string;
  avatar: string | null;
}

/** One grouped notification as `GET /api/notifications` lists it. */
export interface NotificationEntry {
  id: string;
  /** What happened (like, comment, follow, video_processed, ...): the spec's `type`. */
  type: string;
  /** The same as `type`, under its earlier name. */
  kind: string;
  /** The person the notification is for. */
  userId: string;
  /** The latest person who acted; null for what the system did. */
  actorId: string | null;
  /** The target's type and id, as `target` holds them. */
  targetType: string;
  targetId: string;
  /** People who acted, distinct, counted; `actors` holds the latest three of them. */
  count: number;
  actors: NotificationActor[];
  read: boolean;
  /** Where the notification leads in the app, e.g. `/watch/<timelineId>`. */
  link: string;
  target: { type: string; id: string; timelineId: string | null; title: string | null };
  /** A sentence for the notification, e.g. "Ana, Ben and 12 others liked your timeline". */
  text: string;
  /** The same sentence: the spec's `message`. */
  message: string;
  createdAt: string;
  updatedAt: string;
}

/** On `realtime.user.<id>`: a notification of that person was created or grew. */
export interface NotificationReceived {
  type: 'notification';
  notification: NotificationEntry;
  unreadCount: number;
}

/** On `realtime.user.<id>`: the unread count changed otherwise (read elsewhere, a like taken back). */
export interface NotificationCountChanged {
  type: 'notification_count';
  unreadCount: number;
}

/**
 * On `realtime.user.<requester>`: how far an export of theirs has come (the player's download
 * button shows it). `timeline` is the exported timeline's id; `progress` a percentage, 0–100.
 */
export interface ExportProgress {
  type: 'export_progress';
  exportId: string;
  timeline: string;
  status: 'processing' | 'completed' | 'error';
  progress: number;
}

export type RealtimeMessage =
  | NotificationReceived
  | NotificationCountChanged
  | VideoUploadStarted
  | VideoProcessingProgress
  | VideoProcessingCompleted
  | VideoProcessingError
  | MediaProcessingCompleted
  | MediaProcessingError
  | ExportProgress;

export type RealtimeMessageType = RealtimeMessage['type'];

/** What a socket subscribes to, written `timeline:<uuid>` or `user:<uuid>` by clients. */
export interface RealtimeTopic {
  kind: 'timeline' | 'user';
  id: string;
}

type FieldSpec = 'string' | 'number' | { [field: string]: FieldSpec };

// Required fields per message type, beyond `type`. Decoding checks them so a malformed broadcast
// is dropped at the gateway instead of reaching browsers.
const MESSAGE_FIELDS: Record<RealtimeMessageType, Record<string, FieldSpec>> = {
  notification: { notification: { id: 'string', kind: 'string', count: 'number', link: 'string', text: 'string' }, unreadCount: 'number' },
  notification_count: { unreadCount: 'number' },
  video_upload_started: { timelineId: 'string', video: { id: 'string', originalName: 'string' } },
  video_processing_progress: { timelineId: 'string', videoId: 'string', progress: { stage: 'string', progress: 'number', message: 'string' } },
  video_processing_completed: { timelineId: 'string', video: { id: 'string' } },
  video_processing_complete: { timelineId: 'string', video: { id: 'string' } },
  video_processing_error: { timelineId: 'string', videoId: 'string', error: 'string' },
  media_processing_completed: { timelineId: 'string', mediaId: 'string', mediaType: 'string' },
  media_processing_error: { timelineId: 'string', mediaId: 'string', mediaType: 'string', error: 'string' },
  export_progress: { exportId: 'string', timeline: 'string', status: 'string', progress: 'number' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBJECT_ROOT = 'realtime';

function matches(value: unknown, spec: FieldSpec): boolean {
  if (spec === 'string') return typeof value === 'string';
  if (spec === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(spec).every(([field, fieldSpec]) => matches(record[field], fieldSpec));
}

function isMessageType(value: unknown): value is RealtimeMessageType {
  return typeof value === 'string' && Object.hasOwn(MESSAGE_FIELDS, value);
}

function subjectFor(kind: RealtimeTopic['kind'], id: string): string {
  if (!UUID.test(id)) throw new Error(`Realtime ${kind} id must be a UUID, got "${id}"`);
  return `${SUBJECT_ROOT}.${kind}.${id.toLowerCase()}`;
}

export const Realtime = {
  /** Wildcard covering every realtime subject, for a gateway that filters locally. */
  allSubjects: `${SUBJECT_ROOT}.>`,

  timelineSubject: (timelineId: string): string => subjectFor('timeline', timelineId),

  userSubject: (userId: string): string => subjectFor('user', userId),

  subjectOf: (topic: RealtimeTopic): string => subjectFor(topic.kind, topic.id),

  /** `timeline:<uuid>` / `user:<uuid>` → topic; null for anything else. */
  parseTopic(topic: string): RealtimeTopic | null {
    const match = /^(timeline|user):([^:]+)$/.exec(topic);
    if (!match || !UUID.test(match[2]!)) return null;
    return { kind: match[1] as RealtimeTopic['kind'], id: match[2]!.toLowerCase() };
  },

  /** `realtime.timeline.<uuid>` → topic; null when the subject is not a realtime one. */
  topicOfSubject(subject: string): RealtimeTopic | null {
    const [root, kind, id, ...rest] = subject.split('.');
    if (root !== SUBJECT_ROOT || rest.length > 0 || id === undefined || !UUID.test(id)) return null;
    if (kind !== 'timeline' && kind !== 'user') return null;
    return { kind, id: id.toLowerCase() };
  },

  formatTopic: (topic: RealtimeTopic): string => `${topic.kind}:${topic.id}`,

  encode: (message: RealtimeMessage): Uint8Array => new TextEncoder().encode(JSON.stringify(message)),

  /** Parses and checks a payload; throws on anything that is not one of the spec's messages. */
  decode(data: Uint8Array): RealtimeMessage {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
    if (typeof value !== 'object' || value === null) throw new Error('Realtime message is not an object');
    const record = value as Record<string, unknown>;
    if (!isMessageType(record.type)) throw new Error(`Unknown realtime message type ${JSON.stringify(record.type)}`);
    for (const [field, spec] of Object.entries(MESSAGE_FIELDS[record.type])) {
      if (!matches(record[field], spec)) throw new Error(`Malformed realtime ${record.type} message: bad or missing ${field}`);
    }
    return value as RealtimeMessage;
  },
} as const;
