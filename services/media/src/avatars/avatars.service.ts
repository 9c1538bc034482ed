import { BadRequestException, HttpException, HttpStatus, NotFoundException } from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Readable } from 'node:stream';
import { isUuid, type ObjectStorage, type SignedInCaller } from '@timeliner/platform';
import { avatarKey } from '../storage/object-keys.js';
import { sniff } from '../uploads/sniff.js';
import type { AvatarRepository } from './avatars.repository.js';

/** What a profile picture may weigh when uploaded (the stored one is far smaller). */
export const MAX_AVATAR_BYTES = 10 * 1024 * 1024;
/** Side of the stored square, enough for a 3x screen's largest avatar (160 CSS px). */
export const AVATAR_SIDE = 512;
/** Decoding a picture larger than this (a few phone-camera frames' worth) is refused, not attempted. */
const MAX_INPUT_PIXELS = 50_000_000;
const FORM_OVERHEAD = 64 * 1024;
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

export const NOT_AN_IMAGE = 'Please choose an image file (JPEG, PNG, WebP or GIF)';
export const AVATAR_TOO_LARGE = 'Images can be at most 10 MB';

export class AvatarTooLargeError extends HttpException {
  constructor() {
    super(AVATAR_TOO_LARGE, HttpStatus.PAYLOAD_TOO_LARGE);
  }
}

export interface StoredAvatar {
  /** What `PUT /api/auth/profile` takes as `avatar`. */
  avatar: string;
  width: number;
  height: number;
  size: number;
}

export interface ServedAvatar {
  body: Readable;
  size: number;
  version: number;
  updatedAt: Date;
}

export const avatarPath = (userId: string, version: number): string => `/api/users/${userId}/avatar?v=${version}`;

/**
 * Profile pictures. An upload is read whole (it is small), checked by its bytes, turned upright
 * by its EXIF orientation, cropped to the centre square, scaled to 512 x 512 and stored as a
 * JPEG without any of the original's metadata (a phone photo's location stays on the phone).
 * The previous picture is deleted once the new one is in place.
 */
export class AvatarsService {
  constructor(
    private readonly avatars: AvatarRepository,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
  ) {}

  async upload(caller: SignedInCaller, request: FastifyRequest): Promise<StoredAvatar> {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_AVATAR_BYTES + FORM_OVERHEAD) throw new AvatarTooLargeError();
    if (!request.isMultipart()) throw new BadRequestException("Send a multipart form with the image in the 'file' field");
    let part: MultipartFile | undefined;
    try {
      part = await request.file({ limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 5, parts: 10, fieldSize: 1024 } });
    } catch (err) {
      throw new BadRequestException("Send a multipart form with the image in the 'file' field", { cause: err });
    }
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new BadRequestException("Send a multipart form with the image in the 'file' field");
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AvatarTooLargeError();
      throw err;
    }
    if (!ACCEPTED.has(sniff(bytes.subarray(0, 64)).mime)) throw new BadRequestException(NOT_AN_IMAGE);

    const square = await toSquareJpeg(bytes);
    const version = Date.now();
    const key = avatarKey(caller.userId, version);
    await this.storage.put(key, square.data, { contentType: 'image/jpeg', size: square.data.length });
    const previous = await this.avatars.replace({ userId: caller.userId, version, objectKey: key, size: square.data.length });
    if (previous && previous !== key) {
      await this.storage.delete(previous).catch((err: unknown) => this.logger.warn({ err, key: previous }, 'old avatar not deleted'));
    }
    return { avatar: avatarPath(caller.userId, version), width: AVATAR_SIDE, height: AVATAR_SIDE, size: square.data.length };
  }

  /** Anyone may see a profile picture: it is shown beside everything the person writes. */
  async open(userId: string): Promise<ServedAvatar> {
    if (!isUuid(userId)) throw new NotFoundException('Avatar not found');
    const avatar = await this.avatars.find(userId.toLowerCase());
    if (!avatar) throw new NotFoundException('Avatar not found');
    const body = await this.storage.get(avatar.objectKey);
    return { body, size: avatar.size, version: avatar.version, updatedAt: avatar.updatedAt };
  }
}

async function toSquareJpeg(bytes: Buffer): Promise<{ data: Buffer }> {
  // Loaded on first use: the image library is the largest part of this process that most requests never need.
  const { default: sharp } = await import('sharp');
  try {
    const data = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false, failOn: 'error' })
      .rotate()
      .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    return { data };
  } catch (err) {
    throw new BadRequestException(NOT_AN_IMAGE, { cause: err });
  }
}
