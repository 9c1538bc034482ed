import { ApiProperty } from '@nestjs/swagger';
import Bowser from 'bowser';
import type { SessionRow } from './session.repository.js';

export class SessionInfoDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Browser or app with its major version, e.g. "Chrome 131"; "Unknown browser" when the user agent does not tell' }) browser: string;
  @ApiProperty({ description: 'Operating system, e.g. "Android 14"; "Unknown system" when it does not tell' }) system: string;
  @ApiProperty({ enum: ['mobile', 'tablet', 'desktop', 'tv', 'unknown'] }) deviceType: 'mobile' | 'tablet' | 'desktop' | 'tv' | 'unknown';
  @ApiProperty({ type: String, nullable: true, description: 'The address the session was opened from' }) ipAddress: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Last use, to within five minutes' }) lastActiveAt: string;
  @ApiProperty({ description: 'The session of this request ("this device")' }) current: boolean;
}

export class SignedOutSessionsDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sessions that were signed out' }) signedOutSessions: number;
}

const DEVICE_TYPES = new Set(['mobile', 'tablet', 'desktop', 'tv']);

/** Browser, system and kind of device, in words a person recognises, from a session's user agent. */
export function describeUserAgent(userAgent: string | null): Pick<SessionInfoDto, 'browser' | 'system' | 'deviceType'> {
  if (!userAgent) return { browser: 'Unknown browser', system: 'Unknown system', deviceType: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser';
  const osVersion = parsed.os.versionName ?? parsed.os.version;
  const system = parsed.os.name ? `${parsed.os.name}${osVersion ? ` ${osVersion}` : ''}` : 'Unknown system';
  const type = parsed.platform.type ?? 'unknown';
  return { browser, system, deviceType: (DEVICE_TYPES.has(type) ? type : 'unknown') as SessionInfoDto['deviceType'] };
}

/** `currentId`: the session of the request, "this device". */
export const mapSession = (row: SessionRow, currentId: string): SessionInfoDto => ({
  id: row.id,
  ...describeUserAgent(row.userAgent),
  ipAddress: row.createdIp,
  createdAt: row.createdAt.toISOString(),
  lastActiveAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
  current: row.id === currentId,
});
