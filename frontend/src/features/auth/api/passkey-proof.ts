import { api, unwrap } from '../../../lib/api-client';
import { getPasskeyAssertion } from '../lib/webauthn';
import type { Proof } from './disable-totp';

/** Proves who one is with one of one's passkeys (instead of the password), before turning a factor off. */
export async function passkeyProof(): Promise<Proof> {
  const { challengeId, options } = await unwrap(api.POST('/api/auth/passkeys/confirm-options'));
  const response = await getPasskeyAssertion(options);
  return { passkey: { challengeId, response: response as unknown as Record<string, never> } };
}
