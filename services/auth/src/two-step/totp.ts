import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and the step after are accepted too (clocks drift, people type slowly). */
export const TOTP_WINDOW = 1;
const ISSUER = 'Timeliner';

const totp = (secret: string, label = '') => new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** 160 random bits (RFC 4226's recommended length), base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://` link the QR code carries. */
export const totpUri = (secret: string, account: string): string => totp(secret, account).toString();

/** The code of a moment (tests and the web app's own checks compute the same). */
export const totpCode = (secret: string, atMs: number): string => totp(secret).generate({ timestamp: atMs });

/** A six-digit code, spaces allowed between the digits. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** The 30-second step a code belongs to when it is right at `nowMs` (within the window), otherwise null. */
export function acceptedStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret).validate({ token, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
