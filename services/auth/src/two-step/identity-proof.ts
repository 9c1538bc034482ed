import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { SignedInCaller } from '@timeliner/platform';
import { authLimits } from '../auth/auth.limits.js';
import { TooManyAttemptsException } from '../auth/too-many-attempts.js';
import type { WebAuthnCeremonies } from '../passkeys/webauthn.js';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { UserRepository } from '../users/user.repository.js';

/** What proves it is the person themselves before a factor is turned off: the password, or one of their passkeys. */
export interface Proof {
  password?: string | undefined;
  passkey?: { challengeId: string; response: AuthenticationResponseJSON } | undefined;
}

export const PROOF_NEEDED = 'Please enter your password or use one of your passkeys';
export const WRONG_PASSWORD = 'Your password is not right';

/**
 * Checks a proof of the signed-in person. Wrong passwords count against the same per-person and
 * address limit as a wrong current password when changing it.
 */
export class IdentityProof {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly webauthn: WebAuthnCeremonies,
  ) {}

  async check(caller: SignedInCaller, proof: Proof, requestOrigin: string | undefined): Promise<void> {
    if (proof.passkey) {
      await this.webauthn.verifyAssertion(caller.userId, proof.passkey.challengeId, proof.passkey.response, this.webauthn.relyingParty(requestOrigin));
      return;
    }
    if (!proof.password) throw new BadRequestException(PROOF_NEEDED);
    const limit = authLimits.loginFailuresPerAccountAndIp(`user:${caller.userId}`, caller.clientIp);
    const tries = await this.limiter.peek(limit);
    if (tries.limited) throw new TooManyAttemptsException(tries.retryAfter);
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    if (!(await this.hasher.verify(user.passwordHash, proof.password))) {
      await this.limiter.hit(limit);
      throw new BadRequestException(WRONG_PASSWORD);
    }
  }
}
