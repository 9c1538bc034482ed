import type { Logger } from 'pino';
import type { MailMessage, MailSender } from '@timeliner/platform';

export interface AccountMailOptions {
  /** Origin of the web app, for links; unset, the origin the request came in on. */
  publicOrigin?: string | undefined;
}

/**
 * The account e-mails: reset links, confirmations and notices that something changed. Sent after
 * the request has been answered, so the answer and its timing never tell whether an address has
 * an account; a failure is logged (the person can ask again).
 */
export class AccountMail {
  constructor(
    private readonly mail: MailSender,
    private readonly logger: Logger,
    private readonly options: AccountMailOptions = {},
  ) {}

  link(path: string, origin: string | undefined): string {
    return `${(this.options.publicOrigin ?? origin ?? 'http://localhost:8080').replace(/\/+$/, '')}${path}`;
  }

  passwordReset(to: string, name: string, link: string): Promise<void> {
    return this.send({
      to,
      subject: 'Reset your Timeliner password',
      text: [
        `Hello ${name},`,
        '',
        'Someone (we hope you) asked to reset the password of your Timeliner account.',
        'Choose a new password here within 30 minutes; the link works once:',
        '',
        link,
        '',
        'Setting a new password signs you out everywhere.',
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ].join('\r\n'),
    });
  }

  /** A sign-in factor changed (two-step sign-in on or off, new recovery codes, a passkey added or removed): `what` says which, as a sentence. */
  signInMethodsChanged(to: string, name: string, what: string): Promise<void> {
    return this.send({
      to,
      subject: 'How you sign in to Timeliner changed',
      text: [
        `Hello ${name},`,
        '',
        `${what} (${new Date().toUTCString()}).`,
        'If this was you, there is nothing to do.',
        'If it was not, change your password at once and look at Settings, Security: your sessions, two-step sign-in and passkeys.',
      ].join('\r\n'),
    });
  }

  passwordChanged(to: string, name: string): Promise<void> {
    return this.send({
      to,
      subject: 'Your Timeliner password was changed',
      text: [
        `Hello ${name},`,
        '',
        `The password of your Timeliner account was changed on ${new Date().toUTCString()}.`,
        'If this was you, there is nothing to do.',
        'If it was not, reset your password at once with "Forgot password?" on the sign-in screen.',
      ].join('\r\n'),
    });
  }

  emailChangeConfirm(to: string, name: string, link: string): Promise<void> {
    return this.send({
      to,
      subject: 'Confirm your new Timeliner e-mail address',
      text: [
        `Hello ${name},`,
        '',
        'To use this address for your Timeliner account, confirm it here within 24 hours:',
        '',
        link,
        '',
        'If you did not ask for this, ignore this e-mail: nothing changes.',
      ].join('\r\n'),
    });
  }

  emailChangeRequested(to: string, name: string, newAddress: string): Promise<void> {
    return this.send({
      to,
      subject: 'Your Timeliner e-mail address is being changed',
      text: [
        `Hello ${name},`,
        '',
        `Someone signed in to your Timeliner account asked to use ${newAddress} instead of this address.`,
        'The change happens only once it is confirmed from the new address.',
        'If this was not you, change your password at once and sign out your other sessions in Settings, Security.',
      ].join('\r\n'),
    });
  }

  emailChanged(to: string, name: string, newAddress: string): Promise<void> {
    return this.send({
      to,
      subject: 'Your Timeliner e-mail address was changed',
      text: [
        `Hello ${name},`,
        '',
        `Your Timeliner account now uses ${newAddress}; e-mails no longer come to this address.`,
        'If this was not you, reply to this e-mail at once.',
      ].join('\r\n'),
    });
  }

  signInAttempts(to: string, name: string, addresses: number): Promise<void> {
    return this.send({
      to,
      subject: 'Someone is trying to sign in to your Timeliner account',
      text: [
        `Hello ${name},`,
        '',
        `Many sign-ins with a wrong password were tried on your account from ${addresses} address${addresses === 1 ? '' : 'es'}.`,
        'Those addresses are being slowed down; you can still sign in as usual.',
        'If you think someone knows your password, change it in Settings, Security.',
      ].join('\r\n'),
    });
  }

  deletionRequested(to: string, name: string, purgeAfter: Date, signInLink: string): Promise<void> {
    const day = purgeAfter.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    return this.send({
      to,
      subject: 'Your Timeliner account will be deleted',
      text: [
        `Hello ${name},`,
        '',
        `You asked for your Timeliner account to be deleted. You have been signed out everywhere.`,
        `On ${day} your account, your timelines, videos, posts, comments and likes will be deleted for good.`,
        '',
        `Changed your mind? Sign in before then and choose "Cancel deletion":`,
        signInLink,
        '',
        'If this was not you, sign in and cancel the deletion, then change your password at once.',
      ].join('\r\n'),
    });
  }

  deletionCancelled(to: string, name: string): Promise<void> {
    return this.send({
      to,
      subject: 'Your Timeliner account will not be deleted',
      text: [
        `Hello ${name},`,
        '',
        `The deletion of your Timeliner account was cancelled on ${new Date().toUTCString()}. Everything stays as it was.`,
        'If this was not you, change your password at once.',
      ].join('\r\n'),
    });
  }

  /** Sends without holding up the caller. */
  private send(message: MailMessage): Promise<void> {
    return this.mail.send(message).then(
      () => undefined,
      (err: unknown) => this.logger.warn({ err, subject: message.subject }, 'account e-mail could not be sent'),
    );
  }
}
