import { BadRequestException, ConflictException, HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type DataSource, type EntityManager, IsNull } from 'typeorm';
import type { Caller, SignedInCaller } from '@timeliner/platform';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import { Session } from '../sessions/session.entity.js';
import { User } from '../users/user.entity.js';
import { PasswordHasher } from '../security/password-hasher.js';
import { type LimitState, RateLimiter } from '../security/rate-limiter.js';
import { hashToken, newToken } from '../security/tokens.js';
import { EventWriter } from '@timeliner/platform';
import { type AuthResponseDto, type LoginDto, mapUser, type RegisterDto, type UpdateProfileDto, type UserDto } from './auth.dto.js';
import { authLimits, SESSION_TTL_MS } from './auth.limits.js';

/** The same answer for an unknown account and a wrong password, by message, status and timing. */
const INVALID_CREDENTIALS = 'Invalid email/username or password';

export class TooManyAttemptsException extends HttpException {
  constructor(readonly retryAfter: number) {
    const minutes = Math.ceil(retryAfter / 60);
    super({ message: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfter }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

const throwIfLimited = (...states: LimitState[]) => {
  const limited = states.filter((s) => s.limited);
  if (limited.length > 0) throw new TooManyAttemptsException(Math.max(...limited.map((s) => s.retryAfter)));
};

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

@Injectable()
export class AuthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly events: EventWriter,
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
      const result = await this.dataSource.transaction(async (manager) => {
        const user = manager.create(User, { id: randomUUID(), username, email, passwordHash, displayName: dto.displayName, bio: null, avatar: null });
        await manager.insert(User, user);
        const saved = await manager.findOneByOrFail(User, { id: user.id });
        const session = await this.openSession(manager, saved, caller, userAgent);
        await this.events.add(manager, AuthEvents.UserRegistered, {
          userId: saved.id,
          username: saved.username,
          displayName: saved.displayName,
          email: saved.email,
          ...(saved.avatar ? { avatar: saved.avatar } : {}),
        }, { actorUserId: saved.id, requestId: caller.requestId });
        return { user: mapUser(saved), session };
      });
      this.events.committed();
      return result;
    } catch (err) {
      // Which of the two is taken is not said: that would confirm an e-mail address has an account.
      if (isUniqueViolation(err)) throw new ConflictException('That username or email is already in use');
      throw err;
    }
  }

  async login(caller: Caller, dto: LoginDto, userAgent?: string): Promise<AuthResponseDto> {
    const account = dto.login.toLowerCase();
    throwIfLimited(
      await this.limiter.hit(authLimits.loginAttemptsPerIp(caller.clientIp)),
      await this.limiter.peek(authLimits.loginFailuresPerAccountAndIp(account, caller.clientIp)),
      await this.limiter.peek(authLimits.loginFailuresPerAccount(account)),
    );
    const user = await this.dataSource.getRepository(User).findOneBy(account.includes('@') ? { email: account } : { username: account });
    const valid = user ? await this.hasher.verify(user.passwordHash, dto.password) : await this.hasher.verifyDecoy(dto.password);
    if (!user || !valid) {
      await this.limiter.hit(authLimits.loginFailuresPerAccountAndIp(account, caller.clientIp));
      await this.limiter.hit(authLimits.loginFailuresPerAccount(account));
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.limiter.reset(authLimits.loginFailuresPerAccountAndIp(account, caller.clientIp).key);
    if (this.hasher.needsRehash(user.passwordHash)) {
      user.passwordHash = await this.hasher.hash(dto.password);
    }
    return this.dataSource.transaction(async (manager) => {
      await manager.update(User, { id: user.id }, { passwordHash: user.passwordHash, lastActiveAt: new Date() });
      const session = await this.openSession(manager, user, caller, userAgent);
      return { user: mapUser(user), session };
    });
  }

  async logout(caller: SignedInCaller): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const session = await manager.findOneBy(Session, { id: caller.sessionId, userId: caller.userId, revokedAt: IsNull() });
      if (!session) return;
      await manager.update(Session, { id: session.id }, { revokedAt: new Date() });
      await this.events.add(manager, AuthEvents.SessionRevoked, {
        sessionId: session.id,
        userId: session.userId,
        tokenHash: session.tokenHash,
        reason: RevocationReason.LOGOUT,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    this.events.committed();
  }

  async me(caller: SignedInCaller): Promise<UserDto> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id: caller.userId });
    if (!user) throw new UnauthorizedException('Authentication required');
    return mapUser(user);
  }

  async updateProfile(caller: SignedInCaller, dto: UpdateProfileDto): Promise<UserDto> {
    const updated = await this.dataSource.transaction(async (manager) => {
      const user = await manager.findOneBy(User, { id: caller.userId });
      if (!user) throw new UnauthorizedException('Authentication required');
      const changes = profileChanges(user, dto);
      if (Object.keys(changes).length > 0) {
        await manager.update(User, { id: user.id }, changes);
        // Only what changed travels; an empty string means the field was cleared.
        await this.events.add(manager, AuthEvents.UserUpdated, {
          userId: user.id,
          ...(changes.displayName !== undefined ? { displayName: changes.displayName } : {}),
          ...(changes.bio !== undefined ? { bio: changes.bio ?? '' } : {}),
          ...(changes.avatar !== undefined ? { avatar: changes.avatar ?? '' } : {}),
          ...(changes.location !== undefined ? { location: changes.location ?? '' } : {}),
          ...(changes.website !== undefined ? { website: changes.website ?? '' } : {}),
          ...(changes.isPrivate !== undefined ? { isPrivate: changes.isPrivate } : {}),
        }, { actorUserId: user.id, requestId: caller.requestId });
      }
      return mapUser(await manager.findOneByOrFail(User, { id: user.id }));
    });
    this.events.committed();
    return updated;
  }

  private async openSession(manager: EntityManager, user: User, caller: Caller, userAgent?: string) {
    const token = newToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await manager.insert(Session, {
      id: randomUUID(),
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt,
      revokedAt: null,
      lastUsedAt: new Date(),
      createdIp: caller.clientIp.slice(0, 64),
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }
}

type ProfileFields = Pick<User, 'displayName' | 'bio' | 'avatar' | 'location' | 'website' | 'isPrivate'>;

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
