import { createHash } from 'node:crypto';

// Our tokens are 43-character base64url strings; anything far longer is not one of them and is
// not worth a round trip to the auth service.
const MAX_TOKEN_LENGTH = 512;

/**
 * The token of an `Authorization: Bearer <token>` header; undefined when the header is absent,
 * of another scheme, or holds something that cannot be a token.
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(value);
  const token = match?.[1];
  return token && token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}

/** The form in which the auth service stores and looks up tokens: SHA-256, hex. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
