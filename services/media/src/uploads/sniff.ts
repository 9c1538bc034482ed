/**
 * What a file really is, from its first bytes (magic numbers), so a type or name the client
 * claims is never trusted alone: an HTML page or a ZIP named `clip.mp4` is refused.
 */
export interface Sniffed {
  /** The detected type (`video/mp4`, `text/html`, ...), or application/octet-stream when unknown. */
  mime: string;
  /** Whether it is a video or image format the product accepts. */
  accepted: boolean;
}

/** Bytes needed to decide (the EBML DocType of WebM/Matroska sits within the first few dozen). */
export const SNIFF_BYTES = 64;

const ascii = (buf: Buffer, start: number, end: number): string => buf.toString('latin1', start, Math.min(end, buf.length));
const startsWith = (buf: Buffer, bytes: number[], offset = 0): boolean =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

const ok = (mime: string): Sniffed => ({ mime, accepted: true });
const no = (mime: string): Sniffed => ({ mime, accepted: false });

// ISO base media brands (ftyp) that are still images, not videos.
const IMAGE_BRANDS: Record<string, string> = { avif: 'image/avif', avis: 'image/avif', heic: 'image/heic', heix: 'image/heic', mif1: 'image/heif', msf1: 'image/heif' };

export function sniff(head: Buffer): Sniffed {
  // ISO base media: mp4, m4v, mov, 3gp (a `ftyp` box first).
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return ok('video/quicktime');
    if (brand.startsWith('3g')) return ok('video/3gpp');
    if (IMAGE_BRANDS[brand]) return no(IMAGE_BRANDS[brand]);
    return ok('video/mp4');
  }
  // Older QuickTime files may start with another atom.
  if (['moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(head, 4, 8)) && head.readUInt32BE(0) >= 8) return ok('video/quicktime');
  // EBML: WebM or Matroska, told apart by the DocType.
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return ok(ascii(head, 4, SNIFF_BYTES).includes('webm') ? 'video/webm' : 'video/x-matroska');
  if (ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'AVI ') return ok('video/x-msvideo');
    if (form === 'WEBP') return ok('image/webp');
    return no(form === 'WAVE' ? 'audio/wav' : 'application/octet-stream');
  }
  if (startsWith(head, [0x46, 0x4c, 0x56, 0x01])) return ok('video/x-flv');
  // ASF (wmv): its header object's GUID.
  if (startsWith(head, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c])) return ok('video/x-ms-wmv');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return ok('image/jpeg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return ok('image/png');
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return ok('image/gif');
  // BMP: "BM", then the file size, then four reserved zero bytes.
  if (ascii(head, 0, 2) === 'BM' && head.length >= 10 && head.readUInt32LE(6) === 0) return ok('image/bmp');

  // Refused, but named in the answer.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return no('application/zip');
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return no('application/x-elf');
  if (ascii(head, 0, 5) === '%PDF-') return no('application/pdf');
  if (startsWith(head, [0x1f, 0x8b])) return no('application/gzip');
  if (startsWith(head, [0x4d, 0x5a])) return no('application/x-msdownload');
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<script') || text.startsWith('<')) return no(text.startsWith('<?xml') || text.startsWith('<svg') ? 'image/svg+xml' : 'text/html');
  return no('application/octet-stream');
}
