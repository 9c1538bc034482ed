import { HttpStatus } from '@nestjs/common';
import { DetailedHttpException } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import type { StorageUsageRepository } from './storage-usage.repository.js';

const GiB = 1024 ** 3;
/** Default per-person quota: 10 GB (STORAGE_QUOTA_MB, default 10240). */
export const DEFAULT_STORAGE_QUOTA_BYTES = 10 * GiB;
/** The header a tus client reads the space left from on a 413 (the JSON body says it too). */
export const STORAGE_REMAINING_HEADER = 'storage-remaining-bytes';

export interface StorageUsageFigures {
  /** Bytes stored: originals plus what processing made of them. */
  usedBytes: number;
  /** Bytes promised to resumable uploads in progress (their full length). */
  reservedBytes: number;
  quotaBytes: number;
  /** What a new upload may still take: quota − used − reserved, never below 0. */
  remainingBytes: number;
}

/** "1.4 GB", "200 MB", "512 KB", "12 bytes" (binary units, as the 2 GB upload limit). */
export function formatBytes(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}

/** 413: the upload does not fit in what is left of the person's quota; the body and a header say how much is. */
export class StorageQuotaExceededException extends DetailedHttpException {
  /** `neededBytes`: the file's size, when known before it is read. */
  constructor(usage: StorageUsageFigures, neededBytes?: number) {
    super(
      HttpStatus.PAYLOAD_TOO_LARGE,
      `Not enough storage space: ${neededBytes === undefined ? 'only ' : `this file needs ${formatBytes(neededBytes)} but only `}${formatBytes(usage.remainingBytes)} of your ${formatBytes(usage.quotaBytes)} is left`,
      { remainingBytes: usage.remainingBytes, usedBytes: usage.usedBytes, reservedBytes: usage.reservedBytes, quotaBytes: usage.quotaBytes, ...(neededBytes === undefined ? {} : { neededBytes }) },
      { [STORAGE_REMAINING_HEADER]: String(usage.remainingBytes) },
    );
  }
}

/**
 * The per-person storage quota. What counts: the person's stored bytes (`storage_usage`, kept by a
 * trigger on `media`) plus the full length of their resumable uploads in progress, so parallel
 * uploads cannot together pass it. Processing's output is counted once measured, so a person
 * near the quota can end up a little over it; new uploads are then refused until they delete.
 */
export class StorageQuota {
  constructor(
    private readonly stored: StorageUsageRepository,
    readonly quotaBytes: number = DEFAULT_STORAGE_QUOTA_BYTES,
  ) {}

  async usage(userId: string, manager?: EntityManager): Promise<StorageUsageFigures> {
    const { usedBytes, reservedBytes } = await this.stored.usage(userId, manager);
    return { usedBytes, reservedBytes, quotaBytes: this.quotaBytes, remainingBytes: Math.max(0, this.quotaBytes - usedBytes - reservedBytes) };
  }

  /** Throws 413 unless `bytes` more fit; counts nothing. */
  async check(userId: string, bytes: number, manager?: EntityManager): Promise<StorageUsageFigures> {
    const usage = await this.usage(userId, manager);
    if (bytes > usage.remainingBytes) throw new StorageQuotaExceededException(usage, bytes);
    return usage;
  }

  /**
   * Inside the transaction that records `bytes` more for `userId` (an upload session or a media
   * row): one such decision per person at a time, so two uploads cannot both take the last space.
   */
  async claim(manager: EntityManager, userId: string, bytes: number): Promise<void> {
    await this.stored.lockPerson(manager, userId);
    await this.check(userId, bytes, manager);
  }
}
