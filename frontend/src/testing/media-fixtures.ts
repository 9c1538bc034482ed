import type { Video } from '../features/media/api/types';

export function videoFixture(overrides: Partial<Video> = {}): Video {
  const id = overrides.id ?? 'v1';
  return {
    id,
    title: 'Sunrise',
    originalName: 'sunrise.mp4',
    filename: `media/${id}/original`,
    status: 'completed',
    position: 0,
    duration: 75,
    fileSize: 5 * 1024 * 1024,
    uploadedAt: '2025-03-10T12:00:00Z',
    metadata: { width: 1920, height: 1080, createdAt: null },
    thumbnailUrl: null,
    cloudThumbnailUrl: null,
    streamUrl: `/api/videos/${id}/stream`,
    hlsUrl: null,
    errorReason: null,
    mediaType: 'video',
    sensitive: false,
    removedByModerators: false,
    altText: null,
    altTextDeferred: false,
    ...overrides,
  };
}
