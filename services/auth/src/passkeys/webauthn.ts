import { BadRequestException } from '@nestjs/common';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { NewPasskey, PasskeyRepository, PasskeyRow } from './passkey.repository.js';

/** A challenge is answered within five minutes, once. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const RP_NAME = 'Timeliner';

export type ChallengePurpose = 'register' | 'sign-in' | 'confirm';

export const PASSKEY_NOT_RECOGNISED = 'That passkey could not be checked. Please try again.';
const EXPIRED = 'This passkey request has expired. Please try again.';

/** The site passkeys belong to: the web app's public origin and its host name as the relying party id. */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

/**
 * The WebAuthn ceremonies (registration, sign-in with a discoverable credential, and confirming
 * who one is with a passkey): options with a challenge kept server-side, the answers verified by
 * @simplewebauthn/server against the origin and relying party from configuration (PUBLIC_ORIGIN;
 * unset, the origin the request reached the gateway on).
 */
export class WebAuthnCeremonies {
  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly publicOrigin: string | undefined,
  ) {}

  relyingParty(requestOrigin: string | undefined): RelyingParty {
    const origin = this.publicOrigin ?? requestOrigin;
    if (!origin) throw new BadRequestException('Passkeys need the site to be opened at its public address');
    return { origin, rpID: new URL(origin).hostname };
  }

  async registrationOptions(user: { id: string; username: string; displayName: string }, rp: RelyingParty): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    const existing = await this.passkeys.list(user.id);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: user.username,
      userDisplayName: user.displayName,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const challengeId = await this.remember(user.id, 'register', options.challenge);
    return { challengeId, options };
  }

  /** The new passkey's credential, verified; not stored yet. */
  async verifyRegistration(userId: string, challengeId: string, response: RegistrationResponseJSON, rp: RelyingParty): Promise<Omit<NewPasskey, 'name'>> {
    const challenge = await this.take(challengeId, 'register', userId);
    let verification;
    try {
      verification = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification: true });
    } catch {
      throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    }
    if (!verification.verified) throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    const { credential } = verification.registrationInfo;
    return { userId, credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? [] };
  }

  /** Options for an assertion: any passkey of this site (sign-in, `userId` null) or one of the person's own (confirming). */
  async assertionOptions(userId: string | null, rp: RelyingParty): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const allow = userId ? (await this.passkeys.list(userId)).map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })) : [];
    if (userId && allow.length === 0) throw new BadRequestException('You have no passkey yet');
    const options = await generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials: allow, userVerification: 'required' });
    const challengeId = await this.remember(userId, userId ? 'confirm' : 'sign-in', options.challenge);
    return { challengeId, options };
  }

  /**
   * Verifies an assertion and answers the passkey it was made with and the authenticator's new
   * counter (to be stored with the sign-in). With `userId`, the passkey must be that person's.
   */
  async verifyAssertion(userId: string | null, challengeId: string, response: AuthenticationResponseJSON, rp: RelyingParty): Promise<{ passkey: PasskeyRow; newCounter: number }> {
    const challenge = await this.take(challengeId, userId ? 'confirm' : 'sign-in', userId);
    const passkey = typeof response?.id === 'string' ? await this.passkeys.byCredentialId(response.id) : undefined;
    if (!passkey || (userId && passkey.userId !== userId)) throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    // A discoverable credential names its person too; it must be the passkey's.
    const handle = response.response?.userHandle;
    if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.userId) throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: true,
      });
    } catch {
      throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    }
    if (!verification.verified) throw new BadRequestException(PASSKEY_NOT_RECOGNISED);
    return { passkey, newCounter: verification.authenticationInfo.newCounter };
  }

  private remember(userId: string | null, purpose: ChallengePurpose, challenge: string): Promise<string> {
    return this.passkeys.insertChallenge({ userId, purpose, challenge, expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) });
  }

  private async take(challengeId: string, purpose: ChallengePurpose, userId: string | null): Promise<string> {
    const taken = await this.passkeys.takeChallenge(challengeId, purpose);
    if (!taken || taken.userId !== userId) throw new BadRequestException(EXPIRED);
    return taken.challenge;
  }
}
