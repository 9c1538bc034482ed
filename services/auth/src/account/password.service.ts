import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import type { Caller, SignedInCaller, Transactions } from '@timeliner/platform';
import { RevocationReason } from '@timeliner/proto';
import { PASSWORD_RESET_TTL_MS, authLimits, resetLimits, signInDelays } from '../auth/auth.limits.js';
import { throwIfLimited, TooManyAttemptsException } from '../auth/too-many-attempts.js';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { hashToken, newToken } from '../security/tokens.js';
import type { PasswordResetRepository } from '../sessions/password-reset.repository.js';
import type { SessionRevoker } from '../sessions/session-revoker.js';
import type { User } from '../users/user.entity.js';
import type { UserRepository } from '../users/user.repository.js';
import type { AccountMail } from './account-mail.js';
import type { ChangePasswordDto, ChangePasswordResultDto, ForgotPasswordDto, ForgotPasswordResultDto, ResetPasswordDto } from './password.dto.js';

/** One answer for every address, with or without an account. */
export const FORGOT_PASSWORD_ANSWER = 'If an account uses that address, we have sent it a link to choose a new password. It works for 30 minutes.';
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired. Please ask for a new one.';

export class PasswordService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UserRepository,
    private readonly resets: PasswordResetRepository,
    private readonly revoker: SessionRevoker,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly mail: AccountMail,
  ) {}

  /**
   * Sends a reset link when the address has an account. The answer, and what it costs, are the
   * same either way: the e-mail goes out after the answer.
   */
  async forgot(caller: Caller, dto: ForgotPasswordDto, origin?: string): Promise<ForgotPasswordResultDto> {
    const email = dto.email.toLowerCase();
    throwIfLimited(await this.limiter.hit(resetLimits.requestsPerIp(caller.clientIp)), await this.limiter.hit(resetLimits.requestsPerAccount(email)));

    const user = await this.users.findByEmail(email);
    if (user) {
      const token = newToken();
      await this.resets.insert(user.id, hashToken(token), new Date(Date.now() + PASSWORD_RESET_TTL_MS));
      void this.mail.passwordReset(user.email, user.displayName, this.mail.link(`/reset-password/${token}`, origin));
    }
    return { message: FORGOT_PASSWORD_ANSWER };
  }

  /**
   * Sets a new password from a reset link: the link is used up (with every other open link of the
   * account), every session of the account ends, and the owner is told.
   */
  async reset(caller: Caller, dto: ResetPasswordDto): Promise<void> {
    const tries = await this.limiter.hit(resetLimits.attemptsPerIp(caller.clientIp));
    if (tries.limited) throw new TooManyAttemptsException(tries.retryAfter);
    const passwordHash = await this.hasher.hash(dto.password);
    const user = await this.transactions.run(async (manager) => {
      // Used up in the same statement that finds it, so two tries with one link cannot both succeed.
      const userId = await this.resets.use(manager, hashToken(dto.token));
      if (!userId) throw new BadRequestException(INVALID_RESET_LINK);
      await this.resets.useAllOf(manager, userId);
      await this.users.setPasswordHash(manager, userId, passwordHash);
      await this.revoker.revoke(manager, { userId }, RevocationReason.PASSWORD_CHANGED, { actorUserId: userId, requestId: caller.requestId });
      return this.users.getIn(manager, userId);
    });
    // The owner may sign in again at once, from anywhere.
    await this.clearSignInFailures(user);
    void this.mail.passwordChanged(user.email, user.displayName);
  }

  /** Changes the password of the signed-in person, who proves it with the current one; every other session ends. */
  async change(caller: SignedInCaller, dto: ChangePasswordDto): Promise<ChangePasswordResultDto> {
    const tries = await this.limiter.peek(authLimits.loginFailuresPerAccountAndIp(`user:${caller.userId}`, caller.clientIp));
    if (tries.limited) throw new TooManyAttemptsException(tries.retryAfter);
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    if (!(await this.hasher.verify(user.passwordHash, dto.currentPassword))) {
      await this.limiter.hit(authLimits.loginFailuresPerAccountAndIp(`user:${caller.userId}`, caller.clientIp));
      throw new BadRequestException('Your current password is not right');
    }
    if (dto.newPassword === dto.currentPassword) throw new BadRequestException('The new password must be different from the current one');
    const passwordHash = await this.hasher.hash(dto.newPassword);
    const signedOutSessions = await this.transactions.run(async (manager) => {
      await this.users.setPasswordHash(manager, user.id, passwordHash);
      await this.resets.useAllOf(manager, user.id);
      return this.revoker.revoke(manager, { userId: user.id, exceptSessionId: caller.sessionId }, RevocationReason.PASSWORD_CHANGED, {
        actorUserId: user.id,
        requestId: caller.requestId,
      });
    });
    void this.mail.passwordChanged(user.email, user.displayName);
    return { signedOutSessions };
  }

  private async clearSignInFailures(user: User): Promise<void> {
    await this.limiter.reset(signInDelays.accountKey(`user:${user.id}`).key);
  }
}
