/**
 * Captions of videos: the media service announces each change of a video's caption track in one
 * language, with its cues as plain text, for the read models that index what is said (search).
 */
import { CaptionsChangedSchema } from './gen/timeliner/media/v1/captions_pb.js';
import { defineEvent } from './define.js';

export const CaptionEvents = {
  /** A caption track added, replaced or removed; keep the highest `revision` per video and language. */
  CaptionsChanged: defineEvent('media.captions.changed', 1, CaptionsChangedSchema),
} as const;
