import { BadRequestException, ConflictException, UnauthorizedException } from '@nestjs/common';
import type { SignedInCaller, Transactions } from '@timeliner/platform';
import QRCode from 'qrcode';
import type { EntityManager } from 'typeorm';
import { hashToken, newToken } from '../security/tokens.js';
import type { AccountMail } from '../account/account-mail.js';
import type { UserRepository } from '../users/user.repository.js';
import type { IdentityProof, Proof } from './identity-proof.js';
import { hashRecoveryCode, isRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeMatches } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import { acceptedStep, isTotpCode, newTotpSecret, totpUri } from './totp.js';
import type { RecoveryCodesDto, TotpSetupDto, TwoStepStatusDto } from './two-step.dto.js';
import type { TwoStepRepository } from './two-step.repository.js';

export const WRONG_CODE = 'That code is not right. Please try again.';
export const SIGN_IN_EXPIRED = 'This sign-in has expired. Please sign in again.';

/** A right password waits five minutes for its code, and five wrong codes end it. */
export const PENDING_SIGN_IN_TTL_MS = 5 * 60 * 1000;
export const PENDING_SIGN_IN_MAX_CODES = 5;

/** A sign-in waiting for its code. */
export interface PendingSignInRef {
  id: string;
  userId: string;
}

/** Which second step was used. */
export type SecondStep = 'totp' | 'recovery-code';

/**
 * Two-step sign-in with an authenticator app: set-up (a secret shown once, as a QR code and as
 * text), a first code that turns it on and gives ten recovery codes, new recovery codes, turning
 * it off; and the check of a code at sign-in. `clock` is the time codes are checked against.
 */
export class TwoStepService {
  constructor(
    private readonly transactions: Transactions,
    private readonly twoStep: TwoStepRepository,
    private readonly users: UserRepository,
    private readonly box: SecretBox,
    private readonly proof: IdentityProof,
    private readonly clock: () => number = Date.now,
    private readonly mail?: AccountMail,
  ) {}

  async status(caller: SignedInCaller): Promise<TwoStepStatusDto> {
    const totp = await this.twoStep.totp(caller.userId);
    const on = Boolean(totp?.confirmedAt);
    return { enabled: on, enabledAt: on ? totp!.confirmedAt!.toISOString() : null, recoveryCodesLeft: on ? await this.twoStep.recoveryCodesLeft(caller.userId) : 0 };
  }

  /** A new secret, shown this once; two-step sign-in is not on until a code from it is confirmed. */
  async setup(caller: SignedInCaller): Promise<TotpSetupDto> {
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    const secret = newTotpSecret();
    if (!(await this.twoStep.startTotp(user.id, this.box.seal(secret)))) throw new ConflictException('Two-step sign-in is already on');
    const uri = totpUri(secret, user.username);
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** The first code from the app turns two-step sign-in on; the recovery codes are answered this once. */
  async confirm(caller: SignedInCaller, code: string): Promise<RecoveryCodesDto> {
    return this.transactions.run(async (manager) => {
      const totp = await this.twoStep.totp(caller.userId, manager);
      if (!totp) throw new BadRequestException('Please start setting up two-step sign-in again');
      if (totp.confirmedAt) throw new ConflictException('Two-step sign-in is already on');
      const step = acceptedStep(this.box.open(totp.secret), code, this.clock());
      if (step === null) throw new BadRequestException(WRONG_CODE);
      await this.twoStep.confirmTotp(manager, caller.userId, step);
      return { recoveryCodes: await this.newRecoveryCodes(manager, caller.userId) };
    }).then(async (answer) => {
      await this.tell(caller.userId, 'Two-step sign-in was turned on for your Timeliner account');
      return answer;
    });
  }

  /** Turns two-step sign-in off (the password or a passkey first); the recovery codes go with it. */
  async disable(caller: SignedInCaller, proof: Proof, requestOrigin: string | undefined): Promise<void> {
    await this.proof.check(caller, proof, requestOrigin);
    await this.transactions.run((manager) => this.twoStep.removeTotp(manager, caller.userId));
    await this.tell(caller.userId, 'Two-step sign-in was turned off for your Timeliner account: your password alone signs you in now');
  }

  /** Ten new recovery codes (the password or a passkey first); the earlier ones stop working. */
  async regenerate(caller: SignedInCaller, proof: Proof, requestOrigin: string | undefined): Promise<RecoveryCodesDto> {
    await this.proof.check(caller, proof, requestOrigin);
    if (!(await this.twoStep.isOn(caller.userId))) throw new BadRequestException('Two-step sign-in is not on');
    const answer = await this.transactions.run(async (manager) => ({ recoveryCodes: await this.newRecoveryCodes(manager, caller.userId) }));
    await this.tell(caller.userId, 'New recovery codes were made for your Timeliner account; the earlier ones no longer work');
    return answer;
  }

  /** The owner hears of it by e-mail, after the answer. */
  private async tell(userId: string, what: string): Promise<void> {
    const user = this.mail ? await this.users.findById(userId) : null;
    if (user) void this.mail!.signInMethodsChanged(user.email, user.displayName, what);
  }

  /** Whether signing in with a password asks for a code. */
  isOn(userId: string): Promise<boolean> {
    return this.twoStep.isOn(userId);
  }

  /**
   * Checks a sign-in code in the caller's transaction and uses it up: a code from the app (its
   * step, or the one before or after, and never a step already used) or an unused recovery code.
   */
  async useCode(manager: EntityManager, userId: string, code: string): Promise<SecondStep | null> {
    if (isTotpCode(code)) {
      const totp = await this.twoStep.totp(userId, manager);
      if (!totp?.confirmedAt) return null;
      const step = acceptedStep(this.box.open(totp.secret), code, this.clock());
      return step !== null && (await this.twoStep.useStep(manager, userId, step)) ? 'totp' : null;
    }
    if (!isRecoveryCode(code)) return null;
    for (const stored of await this.twoStep.unusedRecoveryCodes(manager, userId)) {
      if (recoveryCodeMatches(stored, code)) return (await this.twoStep.useRecoveryCode(manager, stored.id)) ? 'recovery-code' : null;
    }
    return null;
  }

  /** A right password for an account with two-step sign-in: the token the code is sent with (stored hashed). */
  async startSignIn(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + PENDING_SIGN_IN_TTL_MS);
    await this.twoStep.insertPending(userId, hashToken(token), expiresAt);
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** The sign-in a token stands for, while it waits: not used, not expired, not worn out by wrong codes. */
  pendingSignIn(token: string): Promise<PendingSignInRef | undefined> {
    return this.twoStep.openPending(hashToken(token), PENDING_SIGN_IN_MAX_CODES);
  }

  wrongCode(pending: PendingSignInRef): Promise<void> {
    return this.twoStep.countWrongCode(pending.id);
  }

  /** Ends the wait in the transaction that opens the session; false when another request did first. */
  finishSignIn(manager: EntityManager, pending: PendingSignInRef): Promise<boolean> {
    return this.twoStep.usePending(manager, pending.id);
  }

  private async newRecoveryCodes(manager: EntityManager, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.twoStep.replaceRecoveryCodes(manager, userId, codes.map(hashRecoveryCode));
    return codes;
  }
}
