import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: 43 base64url characters. */
export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

/** What is stored: SHA-256 hex of the token. */
export const hashInvitationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Tokens and invitation ids share `/api/invitations/{…}`; they are told apart by their form. */
export const isInvitationToken = (value: string): boolean => TOKEN.test(value);

/** Invitations are valid for a week from when they were (re)sent. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
