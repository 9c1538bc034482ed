import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored and what the gateway sends to verify: SHA-256 hex of the token. */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
