import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Ten codes, each used once, shown once. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` (about 49 random bits). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** What is compared: lower case, without spaces and dashes. */
export const normaliseRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

export const isRecoveryCode = (code: string): boolean => /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code));

export interface HashedRecoveryCode {
  salt: string;
  codeHash: string;
}

const digest = (salt: string, code: string) => createHash('sha256').update(salt, 'utf8').update(normaliseRecoveryCode(code), 'utf8').digest('hex');

/** SHA-256 with a salt of its own per code (the code's 49 random bits make a slow hash unnecessary). */
export function hashRecoveryCode(code: string): HashedRecoveryCode {
  const salt = randomBytes(16).toString('hex');
  return { salt, codeHash: digest(salt, code) };
}

export function recoveryCodeMatches(stored: HashedRecoveryCode, code: string): boolean {
  return timingSafeEqual(Buffer.from(digest(stored.salt, code), 'hex'), Buffer.from(stored.codeHash, 'hex'));
}
