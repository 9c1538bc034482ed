import { type DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { EventWriter, type MailSender, Transactions } from '@timeliner/platform';
import { AccountMail } from './account/account-mail.js';
import { EmailChangeRepository } from './account/email-change.repository.js';
import { EmailController } from './account/email.controller.js';
import { EmailService } from './account/email.service.js';
import { PasswordController } from './account/password.controller.js';
import { PasswordService } from './account/password.service.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { ProfileController } from './profiles/profile.controller.js';
import { ViewingPreferenceController } from './preferences/viewing-preference.controller.js';
import { ViewingPreferenceRepository } from './preferences/viewing-preference.repository.js';
import { ViewingPreferenceService } from './preferences/viewing-preference.service.js';
import { BlockedProfilesRepository } from './profiles/blocked-profiles.repository.js';
import { ProfileService } from './profiles/profile.service.js';
import { PasswordHasher } from './security/password-hasher.js';
import { RateLimitRepository } from './security/rate-limit.repository.js';
import { RateLimiter } from './security/rate-limiter.js';
import { PasswordResetRepository } from './sessions/password-reset.repository.js';
import { SessionRevoker } from './sessions/session-revoker.js';
import { SessionRepository } from './sessions/session.repository.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { SessionsService } from './sessions/sessions.service.js';
import { UserRepository } from './users/user.repository.js';
import { PasskeyRepository } from './passkeys/passkey.repository.js';
import { PasskeysController } from './passkeys/passkeys.controller.js';
import { PasskeysService } from './passkeys/passkeys.service.js';
import { WebAuthnCeremonies } from './passkeys/webauthn.js';
import { IdentityProof } from './two-step/identity-proof.js';
import { SecretBox } from './two-step/secret-box.js';
import { TwoStepController } from './two-step/two-step.controller.js';
import { TwoStepRepository } from './two-step/two-step.repository.js';
import { TwoStepService } from './two-step/two-step.service.js';
import { AccountDeletionController } from './deletion/account-deletion.controller.js';
import { AccountDeletionService } from './deletion/account-deletion.service.js';

export interface AuthModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  /** Reset links, confirmations and notices go out through it (`createMailSender` from the platform). */
  mail: MailSender;
  logger: Logger;
  /** Where the web app is reached, for links in e-mails; unset, the origin each request came in on. */
  publicOrigin?: string | undefined;
  /** Seals authenticator secrets at rest (32 bytes, TOTP_SECRET_KEY); unset, they are kept unsealed but never shown again. */
  totpSecretKey?: Buffer | undefined;
  /** The time authenticator codes are checked against (tests fix it). */
  clock?: () => number;
  /** How long a deletion the person asked for waits before everything goes; default 30 days. */
  deletionGraceMs?: number;
}

/** Accounts, sign-in and sessions, password and e-mail changes, and people's profiles. */
@Module({})
export class AuthModule {
  static forRoot(deps: AuthModuleDeps): DynamicModule {
    return {
      module: AuthModule,
      controllers: [AuthController, PasswordController, EmailController, SessionsController, TwoStepController, PasskeysController, ProfileController, ViewingPreferenceController, AccountDeletionController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: Transactions, useFactory: (ds: DataSource) => new Transactions(ds), inject: [DataSource] },
        { provide: UserRepository, useFactory: (ds: DataSource) => new UserRepository(ds), inject: [DataSource] },
        { provide: SessionRepository, useFactory: (ds: DataSource) => new SessionRepository(ds), inject: [DataSource] },
        { provide: PasswordResetRepository, useFactory: (ds: DataSource) => new PasswordResetRepository(ds), inject: [DataSource] },
        { provide: EmailChangeRepository, useFactory: () => new EmailChangeRepository() },
        { provide: RateLimitRepository, useFactory: (ds: DataSource) => new RateLimitRepository(ds), inject: [DataSource] },
        { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
        { provide: RateLimiter, useFactory: (counters: RateLimitRepository) => new RateLimiter(counters), inject: [RateLimitRepository] },
        { provide: AccountMail, useFactory: () => new AccountMail(deps.mail, deps.logger, { publicOrigin: deps.publicOrigin }) },
        { provide: SessionRevoker, useFactory: (sessions: SessionRepository, events: EventWriter) => new SessionRevoker(sessions, events), inject: [SessionRepository, EventWriter] },
        { provide: TwoStepRepository, useFactory: (ds: DataSource) => new TwoStepRepository(ds), inject: [DataSource] },
        { provide: PasskeyRepository, useFactory: (ds: DataSource) => new PasskeyRepository(ds), inject: [DataSource] },
        { provide: SecretBox, useFactory: () => new SecretBox(deps.totpSecretKey) },
        { provide: WebAuthnCeremonies, useFactory: (passkeys: PasskeyRepository) => new WebAuthnCeremonies(passkeys, deps.publicOrigin), inject: [PasskeyRepository] },
        {
          provide: IdentityProof,
          useFactory: (users: UserRepository, hasher: PasswordHasher, limiter: RateLimiter, webauthn: WebAuthnCeremonies) => new IdentityProof(users, hasher, limiter, webauthn),
          inject: [UserRepository, PasswordHasher, RateLimiter, WebAuthnCeremonies],
        },
        {
          provide: TwoStepService,
          useFactory: (transactions: Transactions, twoStep: TwoStepRepository, users: UserRepository, box: SecretBox, proof: IdentityProof, mail: AccountMail) =>
            new TwoStepService(transactions, twoStep, users, box, proof, deps.clock, mail),
          inject: [Transactions, TwoStepRepository, UserRepository, SecretBox, IdentityProof, AccountMail],
        },
        {
          provide: PasskeysService,
          useFactory: (passkeys: PasskeyRepository, users: UserRepository, webauthn: WebAuthnCeremonies, proof: IdentityProof, mail: AccountMail) =>
            new PasskeysService(passkeys, users, webauthn, proof, mail),
          inject: [PasskeyRepository, UserRepository, WebAuthnCeremonies, IdentityProof, AccountMail],
        },
        {
          provide: AuthService,
          useFactory: (
            transactions: Transactions,
            users: UserRepository,
            sessions: SessionRepository,
            revoker: SessionRevoker,
            hasher: PasswordHasher,
            limiter: RateLimiter,
            events: EventWriter,
            mail: AccountMail,
            twoStep: TwoStepService,
            webauthn: WebAuthnCeremonies,
            passkeys: PasskeyRepository,
          ) => new AuthService(transactions, users, sessions, revoker, hasher, limiter, events, mail, { twoStep, webauthn, passkeys }),
          inject: [Transactions, UserRepository, SessionRepository, SessionRevoker, PasswordHasher, RateLimiter, EventWriter, AccountMail, TwoStepService, WebAuthnCeremonies, PasskeyRepository],
        },
        {
          provide: PasswordService,
          useFactory: (
            transactions: Transactions,
            users: UserRepository,
            resets: PasswordResetRepository,
            revoker: SessionRevoker,
            hasher: PasswordHasher,
            limiter: RateLimiter,
            mail: AccountMail,
          ) => new PasswordService(transactions, users, resets, revoker, hasher, limiter, mail),
          inject: [Transactions, UserRepository, PasswordResetRepository, SessionRevoker, PasswordHasher, RateLimiter, AccountMail],
        },
        {
          provide: EmailService,
          useFactory: (
            transactions: Transactions,
            users: UserRepository,
            changes: EmailChangeRepository,
            hasher: PasswordHasher,
            limiter: RateLimiter,
            events: EventWriter,
            mail: AccountMail,
          ) => new EmailService(transactions, users, changes, hasher, limiter, events, mail),
          inject: [Transactions, UserRepository, EmailChangeRepository, PasswordHasher, RateLimiter, EventWriter, AccountMail],
        },
        {
          provide: SessionsService,
          useFactory: (transactions: Transactions, sessions: SessionRepository, revoker: SessionRevoker) => new SessionsService(transactions, sessions, revoker),
          inject: [Transactions, SessionRepository, SessionRevoker],
        },
        {
          provide: AccountDeletionService,
          useFactory: (transactions: Transactions, users: UserRepository, revoker: SessionRevoker, proof: IdentityProof, events: EventWriter, mail: AccountMail) =>
            new AccountDeletionService(transactions, users, revoker, proof, events, mail, deps.logger, deps.deletionGraceMs),
          inject: [Transactions, UserRepository, SessionRevoker, IdentityProof, EventWriter, AccountMail],
        },
        { provide: BlockedProfilesRepository, useFactory: (ds: DataSource) => new BlockedProfilesRepository(ds), inject: [DataSource] },
        { provide: ProfileService, useFactory: (users: UserRepository, blocks: BlockedProfilesRepository) => new ProfileService(users, blocks), inject: [UserRepository, BlockedProfilesRepository] },
        { provide: ViewingPreferenceRepository, useFactory: (ds: DataSource) => new ViewingPreferenceRepository(ds), inject: [DataSource] },
        { provide: ViewingPreferenceService, useFactory: (preferences: ViewingPreferenceRepository) => new ViewingPreferenceService(preferences), inject: [ViewingPreferenceRepository] },
      ],
    };
  }
}
