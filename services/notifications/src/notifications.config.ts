import { IsInt, IsOptional, Matches, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { BaseConfig, parseCidr } from '@timeliner/platform';
import { DEFAULT_VAPID_SUBJECT } from './push/vapid.js';

export class NotificationsConfig extends BaseConfig {
  /**
   * VAPID keys (RFC 8292, URL-safe base64, as `npx web-push generate-vapid-keys` prints them).
   * Every replica must share them. Unset: generated once and kept under DATA_DIR (one replica).
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{87}$/, { message: 'must be a P-256 public key in URL-safe base64 (87 characters)' })
  VAPID_PUBLIC_KEY: string | undefined = undefined;

  @ValidateIf((c: NotificationsConfig) => c.VAPID_PUBLIC_KEY !== undefined || c.VAPID_PRIVATE_KEY !== undefined)
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'must be set with VAPID_PUBLIC_KEY: a P-256 private key in URL-safe base64 (43 characters)' })
  VAPID_PRIVATE_KEY: string | undefined = undefined;

  /** The operator's contact, shown to push services. */
  @Matches(/^(mailto:.+@.+|https:\/\/.+)$/, { message: 'must be a mailto: or https: address' })
  VAPID_SUBJECT: string = DEFAULT_VAPID_SUBJECT;

  /**
   * Push services this server sends to, comma-separated: exact host names, or `*.example.com` for
   * any name under one. Unset: any public host. The browsers' services: `fcm.googleapis.com`
   * (Chrome, Edge on Android, Opera, Samsung Internet, Brave), `*.push.services.mozilla.com`
   * (Firefox), `*.notify.windows.com` (Edge on Windows), `web.push.apple.com` (Safari).
   */
  @IsOptional()
  @Matches(/^(\*\.)?[a-z0-9.-]+(,\s*(\*\.)?[a-z0-9.-]+)*$/i, { message: 'must be host names (or *.domain), separated by commas' })
  PUSH_ALLOWED_HOSTS: string | undefined = undefined;

  /**
   * Tests and development only: address ranges (CIDR, comma-separated, e.g. `127.0.0.1/32`) push
   * endpoints may be on although they are not public, for a push service on this machine. Unset in
   * production: loopback, private, link-local and other internal addresses are refused. Only ranges
   * are accepted (not `true`), and the process warns at start while any is set.
   */
  @IsOptional()
  @ValidateBy({
    name: 'isCidrList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.split(',').every((range) => isCidr(range)),
      defaultMessage: () => 'must be address ranges in CIDR form (e.g. 127.0.0.1/32), separated by commas',
    },
  })
  PUSH_ALLOW_PRIVATE_ADDRESSES: string | undefined = undefined;

  /** Push subscriptions (browsers) kept per person; registering one more drops their oldest. */
  @IsInt()
  @Min(1)
  @Max(100)
  PUSH_SUBSCRIPTIONS_PER_PERSON: number = 10;

  /** The settings as the service's push options take them. */
  pushAddresses(): { allowedHosts: string[]; allowedPrivateRanges: string[] } {
    const list = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);
    return { allowedHosts: list(this.PUSH_ALLOWED_HOSTS), allowedPrivateRanges: list(this.PUSH_ALLOW_PRIVATE_ADDRESSES) };
  }
}

function isCidr(text: string): boolean {
  try {
    parseCidr(text);
    return true;
  } catch {
    return false;
  }
}
