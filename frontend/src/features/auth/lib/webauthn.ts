import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

/**
 * The browser's passkey ceremonies through @simplewebauthn/browser, loaded only when a passkey is
 * used or added (never with the first paint of a screen).
 */
const browserLibrary = () => import('@simplewebauthn/browser');

export async function createPasskey(options: Record<string, unknown>): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await browserLibrary();
  return startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
}

export async function getPasskeyAssertion(options: Record<string, unknown>): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await browserLibrary();
  return startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
}

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Plain words for what the browser says when a passkey was not used (cancelled, timed out, not allowed). */
export function passkeyErrorMessage(error: unknown, fallback: string): string | undefined {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey was not used. You can try again.';
  if (name === 'InvalidStateError') return 'This passkey is already added to your account.';
  return error instanceof Error && !('status' in error) ? fallback : undefined;
}
