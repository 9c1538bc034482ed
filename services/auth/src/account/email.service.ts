import { BadRequestException, ConflictException, UnauthorizedException } from '@nestjs/common';
import type { Caller, EventWriter, SignedInCaller, Transactions } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import { authLimits, EMAIL_CHANGE_TTL_MS, emailChangeLimits } from '../auth/auth.limits.js';
import { TooManyAttemptsException } from '../auth/too-many-attempts.js';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { hashToken, newToken } from '../security/tokens.js';
import { isUniqueViolation, type UserRepository } from '../users/user.repository.js';
import { profileUpdated } from '../users/profile-event.js';
import type { AccountMail } from './account-mail.js';
import type { EmailChangeRepository } from './email-change.repository.js';
import { type ChangeEmailDto, type ChangeEmailResultDto, type ConfirmEmailDto, type ConfirmEmailResultDto, INVALID_EMAIL_LINK } from './email.dto.js';

const IN_USE = 'That email address is already in use';

/**
 * Changing the sign-in address: asked for with the current password, confirmed from the new
 * address (a link that works once, for a day), the old address told at both steps.
 */
export class EmailService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UserRepository,
    private readonly changes: EmailChangeRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly events: EventWriter,
    private readonly mail: AccountMail,
  ) {}

  async request(caller: SignedInCaller, dto: ChangeEmailDto, origin?: string): Promise<ChangeEmailResultDto> {
    const newEmail = dto.newEmail.toLowerCase();
    const guesses = authLimits.loginFailuresPerAccountAndIp(`user:${caller.userId}`, caller.clientIp);
    const tries = await this.limiter.peek(guesses);
    if (tries.limited) throw new TooManyAttemptsException(tries.retryAfter);
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    if (!(await this.hasher.verify(user.passwordHash, dto.currentPassword))) {
      await this.limiter.hit(guesses);
      throw new BadRequestException('Your current password is not right');
    }
    if (newEmail === user.email) throw new BadRequestException('That is already the email address of your account');
    if (await this.users.emailTaken(newEmail, user.id)) throw new ConflictException(IN_USE);
    const sent = await this.limiter.hit(emailChangeLimits.requestsPerAccount(user.id));
    if (sent.limited) throw new TooManyAttemptsException(sent.retryAfter);

    const token = newToken();
    // One change waits at a time: a new request replaces the one before.
    await this.transactions.run((manager) =>
      this.changes.replacePending(manager, { userId: user.id, newEmail, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS) }),
    );
    void this.mail.emailChangeConfirm(newEmail, user.displayName, this.mail.link(`/confirm-email/${token}`, origin));
    void this.mail.emailChangeRequested(user.email, user.displayName, newEmail);
    return { message: `We have sent a link to ${newEmail}. Your address changes once you open it (within 24 hours).`, pendingEmail: newEmail };
  }

  /** Confirms from the new address; open to signed-out callers, as the link may be opened on another device. */
  async confirm(caller: Caller, dto: ConfirmEmailDto): Promise<ConfirmEmailResultDto> {
    const { user, oldEmail } = await this.transactions
      .run(async (manager) => {
        const change = await this.changes.use(manager, hashToken(dto.token));
        if (!change) throw new BadRequestException(INVALID_EMAIL_LINK);
        const before = await this.users.getIn(manager, change.userId);
        // A profile change like the others: one version up, the whole profile in the event.
        await this.users.setEmail(manager, before.id, change.newEmail);
        const after = await this.users.getIn(manager, before.id);
        await this.events.add(manager, AuthEvents.UserUpdated, profileUpdated(after), { actorUserId: before.id, requestId: caller.requestId });
        return { user: after, oldEmail: before.email };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw new ConflictException(IN_USE);
        throw err;
      });
    void this.mail.emailChanged(oldEmail, user.displayName, user.email);
    return { email: user.email };
  }
}
