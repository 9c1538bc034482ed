import type { Limit } from '../security/rate-limiter.js';

/**
 * Brute-force limits. Failures are counted per account *and address* tightly, so an attacker
 * elsewhere cannot lock the real user out; per account overall at ASVS's 100 per hour; per
 * address across accounts against credential stuffing. Registration is limited per address and
 * per attempted account.
 */
export const authLimits = {
  loginFailuresPerAccountAndIp: (account: string, ip: string): Limit => ({ key: `login:fail:acct-ip:${account}:${ip}`, max: 10, windowSeconds: 15 * 60 }),
  loginFailuresPerAccount: (account: string): Limit => ({ key: `login:fail:acct:${account}`, max: 100, windowSeconds: 60 * 60 }),
  loginAttemptsPerIp: (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 60, windowSeconds: 15 * 60 }),
  registrationsPerIp: (ip: string): Limit => ({ key: `register:ip:${ip}`, max: 20, windowSeconds: 60 * 60 }),
  registrationsPerAccount: (account: string): Limit => ({ key: `register:acct:${account}`, max: 5, windowSeconds: 60 * 60 }),
};

/** Sessions last 30 days from sign-in; signing out or a password change ends them sooner. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
