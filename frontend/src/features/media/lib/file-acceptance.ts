/** Largest file accepted: 2 GB (spec 001, section 9). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;

const VIDEO_TYPES = ['mp4', 'quicktime', 'x-msvideo', 'webm', 'avi', 'mov', 'octet-stream'];
const IMAGE_TYPES = ['jpeg', 'jpg', 'png', 'gif', 'webp', 'bmp'];
const VIDEO_EXTENSIONS = ['mp4', 'mov', 'avi', 'webm', 'mkv', 'm4v', '3gp', 'wmv', 'flv'];
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp'];

export const FILE_TOO_LARGE = 'File too large. Maximum size is 2GB.';

/** What the pickers offer; the checks below are what decides. */
export const MEDIA_ACCEPT = 'video/*,image/*,.mp4,.mov,.avi,.webm,.mkv,.m4v,.3gp,.wmv,.flv,.jpg,.jpeg,.png,.gif,.webp,.bmp';
export const VIDEO_ACCEPT = 'video/*,.mp4,.mov,.avi,.webm,.mkv,.m4v,.3gp,.wmv,.flv';

type FileInfo = Pick<File, 'name' | 'type' | 'size'>;

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function subtype(type: string, family: 'video' | 'image'): string | null {
  const [main, sub] = type.toLowerCase().split('/');
  if (!sub) return null;
  // octet-stream arrives as application/octet-stream: a browser that could not tell.
  if (main === family || (family === 'video' && main === 'application')) return sub;
  return null;
}

export function isVideoFile(file: FileInfo): boolean {
  const sub = subtype(file.type, 'video');
  if (sub && VIDEO_TYPES.includes(sub)) return true;
  return VIDEO_EXTENSIONS.includes(extension(file.name));
}

export function isImageFile(file: FileInfo): boolean {
  const sub = subtype(file.type, 'image');
  if (sub && IMAGE_TYPES.includes(sub)) return true;
  return IMAGE_EXTENSIONS.includes(extension(file.name));
}

/** What a browser-reported type tells about a file; images win only on a clear image type or name. */
export function mediaKind(file: FileInfo): 'video' | 'image' {
  if (file.type.toLowerCase().startsWith('image/')) return 'image';
  if (file.type.toLowerCase().startsWith('video/')) return 'video';
  return IMAGE_EXTENSIONS.includes(extension(file.name)) ? 'image' : 'video';
}

/**
 * The media uploader's acceptance rule (spec 001, section 5): a known video or image type, or a
 * known extension; at most 2 GB. Null when accepted, else the message to show.
 */
export function mediaFileProblem(file: FileInfo): string | null {
  if (!isVideoFile(file) && !isImageFile(file)) {
    return `Invalid file type. Only video and image files are supported. Received: ${file.type || 'unknown'} for ${file.name}`;
  }
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}

/** The batch uploader keeps only videos (by type or extension) of at most 2 GB, silently. */
export function isBatchVideo(file: FileInfo): boolean {
  return isVideoFile(file) && file.size <= MAX_UPLOAD_BYTES;
}
