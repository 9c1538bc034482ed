import { BadRequestException, ConflictException, UnauthorizedException } from '@nestjs/common';
import type { Caller, EventWriter, SignedInCaller, Transactions } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import { refuseIfSuspended } from '../suspensions/suspensions.js';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import type { SessionRevoker } from '../sessions/session-revoker.js';
import type { NewSession, SessionRepository } from '../sessions/session.repository.js';
import type { User } from '../users/user.entity.js';
import { isUniqueViolation, type ProfileFields, type UserRepository } from '../users/user.repository.js';
import { profileUpdated } from '../users/profile-event.js';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { hashToken, newToken } from '../security/tokens.js';
import { type AuthResponseDto, type LoginDto, mapUser, type RegisterDto, type UpdateProfileDto, type UserDto } from './auth.dto.js';
import { authLimits, SESSION_TTL_MS, signInDelays, signInWait } from './auth.limits.js';
import { throwIfLimited, TooManyAttemptsException } from './too-many-attempts.js';
import type { AccountMail } from '../account/account-mail.js';
import type { PasskeyRepository } from '../passkeys/passkey.repository.js';
import type { AssertionOptionsDto } from '../passkeys/passkeys.dto.js';
import type { WebAuthnCeremonies } from '../passkeys/webauthn.js';
import type { PasskeyAssertionDto, SecondStepDto, SecondStepRequiredDto } from '../two-step/two-step.dto.js';
import { SIGN_IN_EXPIRED, type TwoStepService, WRONG_CODE } from '../two-step/two-step.service.js';
import { CANCEL_LINK_EXPIRED, type CancelDeletionDto, type DeletionPendingDto } from '../deletion/account-deletion.dto.js';
import { cancelPendingDeletion, offerCancelIfPending } from '../deletion/account-deletion.service.js';

/** Two-step sign-in and passkeys, when the service has them. */
export interface SecondFactors {
  twoStep: TwoStepService;
  webauthn: WebAuthnCeremonies;
  passkeys: PasskeyRepository;
}

/** Where one sign-in attempt stands with the lockout rules: whose failures it counts under, and how many so far. */
interface Attempt {
  account: string;
  failuresKey: string;
  failuresSoFar: number;
}

/** The same answer for an unknown account and a wrong password, by message, status and timing. */
const INVALID_CREDENTIALS = 'Invalid email/username or password';

/** A new session: its token, given to the person once, and the row that stores only its hash. */
function newSession(userId: string, caller: Caller, userAgent: string | undefined): { answer: { token: string; expiresAt: string }; record: NewSession } {
  const token = newToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  return { answer: { token, expiresAt: expiresAt.toISOString() }, record: { userId, tokenHash: hashToken(token), expiresAt, createdIp: caller.clientIp, userAgent } };
}

export class AuthService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly revoker: SessionRevoker,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly events: EventWriter,
    private readonly mail?: AccountMail,
    private readonly factors?: SecondFactors,
  ) {}

  async register(caller: Caller, dto: RegisterDto, userAgent?: string): Promise<AuthResponseDto> {
    const username = dto.username.toLowerCase();
    const email = dto.email.toLowerCase();
    throwIfLimited(
      await this.limiter.hit(authLimits.registrationsPerIp(caller.clientIp)),
      await this.limiter.hit(authLimits.registrationsPerAccount(email)),
    );
    // Hash first, so a taken name costs the same time as a new account.
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      return await this.transactions.run(async (manager) => {
        const saved = await this.users.insert(manager, { username, email, passwordHash, displayName: dto.displayName });
        const session = newSession(saved.id, caller, userAgent);
        await this.sessions.insert(manager, session.record);
        await this.events.add(manager, AuthEvents.UserRegistered, {
          userId: saved.id,
          username: saved.username,
          displayName: saved.displayName,
          email: saved.email,
          ...(saved.avatar ? { avatar: saved.avatar } : {}),
          isPrivate: saved.isPrivate,
          profileVersion: BigInt(saved.profileVersion),
        }, { actorUserId: saved.id, requestId: caller.requestId });
        return { user: mapUser(saved), session: session.answer };
      });
    } catch (err) {
      // Which of the two is taken is not said: that would confirm an e-mail address has an account.
      if (isUniqueViolation(err)) throw new ConflictException('That username or email is already in use');
      throw err;
    }
  }

  /**
   * Signs in with a password. An account with two-step sign-in answers a short-lived token for
   * the second step instead of a session (the failures so far are kept until the code is right).
   */
  async login(caller: Caller, dto: LoginDto, userAgent?: string): Promise<AuthResponseDto | SecondStepRequiredDto | DeletionPendingDto> {
    const typed = dto.login.toLowerCase();
    throwIfLimited(await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)));
    const user = typed.includes('@') ? await this.users.findByEmail(typed) : await this.users.findByUsername(typed);
    // Failures belong to the person however the name was typed; to the typed text when there is no such account.
    const attempt = await this.admit(user ? `user:${user.id}` : `name:${typed}`, user, caller, userAgent);
    const valid = user ? await this.hasher.verify(user.passwordHash, dto.password) : await this.hasher.verifyDecoy(dto.password);
    if (!user || !valid) {
      await this.failed(attempt, user);
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    if (this.hasher.needsRehash(user.passwordHash)) {
      user.passwordHash = await this.hasher.hash(dto.password);
    }
    if (this.factors && (await this.factors.twoStep.isOn(user.id))) {
      return { secondStep: await this.factors.twoStep.startSignIn(user.id) };
    }
    if (attempt.failuresSoFar > 0) await this.limiter.reset(attempt.failuresKey);
    return this.transactions.run((manager) => this.openSession(manager, user, caller, userAgent));
  }

  /**
   * The second step of a password sign-in: a code from the authenticator app or a recovery code,
   * each used once. Wrong codes count as sign-in failures under the same lockout rules as wrong
   * passwords, and five of them end the pending sign-in.
   */
  async secondStep(caller: Caller, dto: SecondStepDto, userAgent?: string): Promise<AuthResponseDto | DeletionPendingDto> {
    const factors = this.requireFactors();
    throwIfLimited(await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)));
    const pending = await factors.twoStep.pendingSignIn(dto.token);
    const user = pending ? await this.users.findById(pending.userId) : null;
    if (!pending || !user) throw new UnauthorizedException(SIGN_IN_EXPIRED);
    const attempt = await this.admit(`user:${user.id}`, user, caller, userAgent);
    const answer = await this.transactions.run(async (manager) => {
      if (!(await factors.twoStep.useCode(manager, user.id, dto.code))) return null;
      if (!(await factors.twoStep.finishSignIn(manager, pending))) throw new UnauthorizedException(SIGN_IN_EXPIRED);
      return this.openSession(manager, user, caller, userAgent);
    });
    if (!answer) {
      await factors.twoStep.wrongCode(pending);
      await this.failed(attempt, user);
      throw new UnauthorizedException(WRONG_CODE);
    }
    if (attempt.failuresSoFar > 0) await this.limiter.reset(attempt.failuresKey);
    return answer;
  }

  /** Options for signing in with a passkey alone (any passkey of this site; the browser offers the person's own). */
  async passkeySignInOptions(caller: Caller, requestOrigin: string | undefined): Promise<AssertionOptionsDto> {
    const factors = this.requireFactors();
    throwIfLimited(await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)));
    return factors.webauthn.assertionOptions(null, factors.webauthn.relyingParty(requestOrigin));
  }

  /** Signs in with a passkey alone: the browser's answer verified against the challenge and the stored public key. */
  async passkeySignIn(caller: Caller, dto: PasskeyAssertionDto, requestOrigin: string | undefined, userAgent?: string): Promise<AuthResponseDto | DeletionPendingDto> {
    const factors = this.requireFactors();
    throwIfLimited(await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)));
    const { passkey, newCounter } = await factors.webauthn.verifyAssertion(null, dto.challengeId, dto.response, factors.webauthn.relyingParty(requestOrigin));
    const user = await this.users.findById(passkey.userId);
    if (!user) throw new UnauthorizedException(INVALID_CREDENTIALS);
    return this.transactions.run(async (manager) => {
      await factors.passkeys.used(manager, passkey.id, newCounter);
      return this.openSession(manager, user, caller, userAgent);
    });
  }

  private requireFactors(): SecondFactors {
    if (!this.factors) throw new UnauthorizedException('Two-step sign-in is not available');
    return this.factors;
  }

  /**
   * The lockout rules (issue 29 item 5) before an attempt: refused with the wait when this account
   * and address must still wait. A device the person has signed in from before (address and
   * browser of one of their sessions) keeps a count of its own, untouched by a burst.
   */
  private async admit(account: string, user: User | null, caller: Caller, userAgent: string | undefined): Promise<Attempt> {
    const device = user && (await this.sessions.existsFromDevice(user.id, caller.clientIp, userAgent)) ? hashToken(userAgent ?? '').slice(0, 16) : undefined;
    const failuresKey = signInDelays.failuresKey(account, caller.clientIp, device);
    const here = await this.limiter.failures(failuresKey, signInDelays.windowSeconds);
    const burst = device ? { limited: false } : await this.limiter.peek(signInDelays.accountKey(account));
    const wait = signInWait(here.count, here.lastAt, burst.limited);
    if (wait > 0) throw new TooManyAttemptsException(wait);
    // During a burst the devices the owner never used share one door, before any password is checked.
    if (burst.limited) throwIfLimited(await this.limiter.hit(signInDelays.burstGate(account)));
    return { account, failuresKey, failuresSoFar: here.count };
  }

  /** A wrong password or code: counted for this account and address, and towards a burst against the account. */
  private async failed(attempt: Attempt, user: User | null): Promise<void> {
    await this.limiter.failure(attempt.failuresKey, signInDelays.windowSeconds);
    const overall = await this.limiter.hit(signInDelays.accountKey(attempt.account));
    if (user && overall.limited) await this.tellOwnerOfBurst(user, attempt.account);
  }

  /**
   * Cancels an account's deletion with the token its sign-in answered (the sign-in was right, so
   * the person is who they say), and opens the session that sign-in would have.
   */
  async cancelDeletion(caller: Caller, dto: CancelDeletionDto, userAgent?: string): Promise<AuthResponseDto> {
    throwIfLimited(await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)));
    const { answer, user } = await this.transactions.run(async (manager) => {
      const userId = await cancelPendingDeletion(manager, this.events, dto.token, CANCEL_LINK_EXPIRED, caller.requestId);
      const user = await this.users.getIn(manager, userId);
      return { answer: await this.openSession(manager, user, caller, userAgent), user };
    });
    if ('deletionPending' in answer) throw new UnauthorizedException(CANCEL_LINK_EXPIRED);
    void this.mail?.deletionCancelled(user.email, user.displayName);
    return answer;
  }

  /** A session, unless the account is waiting to be deleted: then the offer to cancel that (deletion/account-deletion.service.ts). */
  private async openSession(manager: EntityManager, user: User, caller: Caller, userAgent: string | undefined): Promise<AuthResponseDto | DeletionPendingDto> {
    await refuseIfSuspended(manager, user.id);
    const pending = await offerCancelIfPending(manager, user.id);
    if (pending) return pending;
    await this.users.recordSignIn(manager, user.id, user.passwordHash);
    const session = newSession(user.id, caller, userAgent);
    await this.sessions.insert(manager, session.record);
    return { user: mapUser(user), session: session.answer };
  }

  /** Once an hour at most: the owner hears that many wrong passwords are being tried, and from how many addresses. */
  private async tellOwnerOfBurst(user: User, account: string): Promise<void> {
    if (!this.mail) return;
    const told = await this.limiter.hit(signInDelays.ownerToldKey(user.id));
    if (told.limited) return;
    const addresses = await this.limiter.countKeys(signInDelays.failuresKey(account, ''), signInDelays.windowSeconds);
    void this.mail.signInAttempts(user.email, user.displayName, addresses);
  }

  /** Ends the caller's own session, announced as SessionRevoked like every other ending. */
  async logout(caller: SignedInCaller): Promise<void> {
    await this.transactions.run((manager) =>
      this.revoker.revoke(manager, { userId: caller.userId, sessionId: caller.sessionId }, RevocationReason.LOGOUT, { actorUserId: caller.userId, requestId: caller.requestId }),
    );
  }

  async me(caller: SignedInCaller): Promise<UserDto> {
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    return mapUser(user);
  }

  async updateProfile(caller: SignedInCaller, dto: UpdateProfileDto): Promise<UserDto> {
    return this.transactions.run(async (manager) => {
      const user = await this.users.findByIdIn(manager, caller.userId);
      if (!user) throw new UnauthorizedException('Authentication required');
      const changes = profileChanges(user, dto);
      if (Object.keys(changes).length === 0) return mapUser(user);
      // One version up with the change (the repository's update), carried whole by the event.
      await this.users.updateProfile(manager, user.id, changes);
      const after = await this.users.getIn(manager, user.id);
      await this.events.add(manager, AuthEvents.UserUpdated, profileUpdated(after), { actorUserId: user.id, requestId: caller.requestId });
      return mapUser(after);
    });
  }
}

/**
 * What a profile edit changes: only fields that were sent and differ from what is stored, blanks
 * stored as null. An avatar under `/api/users/{id}/avatar` must be the caller's own: another
 * person's picture is theirs to show, not ours to borrow.
 */
function profileChanges(user: User, dto: UpdateProfileDto): Partial<ProfileFields> {
  const blankToNull = (value: string) => (value.trim() === '' ? null : value);
  const wanted: Partial<ProfileFields> = {};
  if (dto.displayName !== undefined) wanted.displayName = dto.displayName;
  if (dto.bio !== undefined) wanted.bio = blankToNull(dto.bio);
  if (dto.location !== undefined) wanted.location = blankToNull(dto.location);
  if (dto.website !== undefined) wanted.website = dto.website === '' ? null : normaliseWebsite(dto.website);
  if (dto.isPrivate !== undefined) wanted.isPrivate = dto.isPrivate;
  if (dto.avatar !== undefined) {
    const owner = /^\/api\/users\/([^/]+)\/avatar/.exec(dto.avatar)?.[1];
    if (owner !== undefined && owner.toLowerCase() !== user.id) throw new BadRequestException('Avatar must be an image uploaded to this site');
    wanted.avatar = blankToNull(dto.avatar);
  }
  return Object.fromEntries(Object.entries(wanted).filter(([key, value]) => user[key as keyof ProfileFields] !== value)) as Partial<ProfileFields>;
}

/** A link a browser opens as the site it names: http(s), a host, no user:password part; stored as `URL` writes it. */
function normaliseWebsite(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestException('Website must be a link starting with http:// or https://');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username !== '' || url.password !== '') {
    throw new BadRequestException('Website must be a link starting with http:// or https://');
  }
  if (url.href.length > 2048) throw new BadRequestException('Website must be at most 2048 characters');
  return url.href;
}
