/**
 * The media API's shapes: aliases of the generated schemas, plus the realtime messages (which the
 * OpenAPI description does not cover).
 */

import type { ApiSchemas } from '../../../lib/api-client';

export type VideoStatus = ApiSchemas['VideoDto']['status'];

/** Spec 001's Video, plus the HLS master playlist (`hlsUrl`, null until the first rendition). */
export type Video = ApiSchemas['VideoDto'];

export type MediaType = ApiSchemas['MediaItemDto']['type'];

/** Spec 000's timeline media item. */
export type MediaItem = ApiSchemas['MediaItemDto'];

export type TimestampOrder = 'upload' | 'created';

/** POST /export: the download (200), or the export still being made (202). */
export type ExportTimelineAnswer = Partial<ApiSchemas['ExportResultDto']> & Partial<ApiSchemas['ExportPendingDto']>;

/** GET /api/exports/{id}. */
export type ExportStatus = ApiSchemas['ExportStatusDto'];

// Realtime messages about a timeline's media (spec 001, section 7 "Realtime").

export interface VideoUploadStartedMessage {
  type: 'video_upload_started';
  timelineId: string;
  video: { id: string; originalName: string };
}

export interface ProcessingProgress {
  stage: string;
  /** Whole percent, 0-100. */
  progress: number;
  message: string;
}

export interface VideoProcessingProgressMessage {
  type: 'video_processing_progress';
  timelineId: string;
  videoId: string;
  progress: ProcessingProgress;
}

export interface VideoProcessingCompletedMessage {
  type: 'video_processing_completed' | 'video_processing_complete';
  timelineId: string;
  video: { id: string };
}

export interface VideoProcessingErrorMessage {
  type: 'video_processing_error';
  timelineId: string;
  videoId: string;
  error: string;
}

export interface MediaProcessingMessage {
  type: 'media_processing_completed' | 'media_processing_error';
  timelineId: string;
  mediaId: string;
  mediaType: MediaType;
  error?: string;
}

export type MediaRealtimeMessage =
  | VideoUploadStartedMessage
  | VideoProcessingProgressMessage
  | VideoProcessingCompletedMessage
  | VideoProcessingErrorMessage
  | MediaProcessingMessage;
