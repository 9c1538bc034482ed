import { describe, expect, it } from '@jest/globals';
import { FILE_TOO_LARGE, isBatchVideo, MAX_UPLOAD_BYTES, mediaFileProblem } from './file-acceptance';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('media file acceptance (spec 001, section 5)', () => {
  it.each([
    ['clip.mp4', 'video/mp4'],
    ['clip.mov', 'video/quicktime'],
    ['clip.avi', 'video/x-msvideo'],
    ['clip.webm', 'video/webm'],
    ['clip.bin', 'application/octet-stream'],
    ['photo.jpg', 'image/jpeg'],
    ['photo.png', 'image/png'],
    ['photo.gif', 'image/gif'],
    ['photo.webp', 'image/webp'],
    ['photo.bmp', 'image/bmp'],
    // Accepted by name when the browser reports no (or an odd) type.
    ['holiday.MKV', ''],
    ['phone.3gp', ''],
    ['old.flv', 'application/x-unknown'],
    ['old.wmv', ''],
    ['clip.m4v', ''],
    ['scan.JPEG', ''],
  ])('accepts %s (%s)', (name, type) => {
    expect(mediaFileProblem(file(name, type))).toBeNull();
  });

  it('names the type and the file it refuses', () => {
    expect(mediaFileProblem(file('notes.pdf', 'application/pdf'))).toBe(
      'Invalid file type. Only video and image files are supported. Received: application/pdf for notes.pdf',
    );
    expect(mediaFileProblem(file('song.mp3', 'audio/mpeg'))).toBe(
      'Invalid file type. Only video and image files are supported. Received: audio/mpeg for song.mp3',
    );
  });

  it('refuses more than 2 GB, and accepts exactly 2 GB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(2 * 1024 * 1024 * 1024);
    expect(mediaFileProblem(file('big.mp4', 'video/mp4', MAX_UPLOAD_BYTES + 1))).toBe(FILE_TOO_LARGE);
    expect(FILE_TOO_LARGE).toBe('File too large. Maximum size is 2GB.');
    expect(mediaFileProblem(file('big.mp4', 'video/mp4', MAX_UPLOAD_BYTES))).toBeNull();
  });

  it('keeps only videos of at most 2 GB in the batch uploader', () => {
    expect(isBatchVideo(file('a.mp4', 'video/mp4'))).toBe(true);
    expect(isBatchVideo(file('a.mkv', ''))).toBe(true);
    expect(isBatchVideo(file('a.png', 'image/png'))).toBe(false);
    expect(isBatchVideo(file('a.mp4', 'video/mp4', MAX_UPLOAD_BYTES + 1))).toBe(false);
  });
});
