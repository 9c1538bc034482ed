import type { Limit } from '../security/rate-limiter.js';

/**
 * Brute-force limits. Sign-in failures are slowed per account and address (`signInDelays`
 * below); attempts per address across accounts are limited against credential stuffing; a wrong
 * current password (changing the password or the e-mail address) is limited per person and
 * address. Registration is limited per address and per attempted account.
 */
export const authLimits = {
  loginFailuresPerAccountAndIp: (account: string, ip: string): Limit => ({ key: `login:fail:acct-ip:${account}:${ip}`, max: 10, windowSeconds: 15 * 60 }),
  loginAttemptsPerIp: (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 60, windowSeconds: 15 * 60 }),
  registrationsPerIp: (ip: string): Limit => ({ key: `register:ip:${ip}`, max: 20, windowSeconds: 60 * 60 }),
  registrationsPerAccount: (account: string): Limit => ({ key: `register:acct:${account}`, max: 5, windowSeconds: 60 * 60 }),
};

/**
 * Sign-in failures are counted per account (the person, however the name was typed) and source
 * address, with delays that grow: the first `free` failures cost nothing, each one after doubles
 * the wait (1 s, 2 s, 4 s … at most 15 minutes), and an hour without one starts the count again.
 * When one account meets a burst (`burstFailures` within the hour, from anywhere) each address
 * gets only `freeDuringBurst`, and all the devices the owner never signed in from share one
 * narrow door (`burstGate`: one attempt per `burstGateSeconds` for the account): many addresses
 * guessing slowly each would otherwise make one password check per guess, on the owner's
 * account and on everyone's processor. Nothing counts across addresses towards a lock of the
 * account itself: a device the owner has signed in from before (the address and browser of one of
 * their sessions) keeps a count of its own that a burst does not touch, even behind the
 * attacker's address; from a new device during a burst the owner waits seconds, as anyone does.
 */
export const signInDelays = {
  windowSeconds: 60 * 60,
  free: 5,
  freeDuringBurst: 1,
  baseSeconds: 1,
  maxSeconds: 15 * 60,
  burstFailures: 20,
  failuresKey: (account: string, ip: string, device?: string) => `login:delay:${account}:${ip}${device ? `:device:${device}` : ''}`,
  accountKey: (account: string): Limit => ({ key: `login:burst:${account}`, max: 20, windowSeconds: 60 * 60 }),
  burstGateSeconds: 10,
  burstGate: (account: string): Limit => ({ key: `login:burst-gate:${account}`, max: 1, windowSeconds: signInDelays.burstGateSeconds }),
  /** The owner is told of a burst at most once an hour. */
  ownerToldKey: (userId: string): Limit => ({ key: `login:told:${userId}`, max: 1, windowSeconds: 60 * 60 }),
};

/** Seconds still to wait after `count` failures, the latest at `lastAt`. */
export function signInWait(count: number, lastAt: Date | null, burst: boolean, now = Date.now()): number {
  const free = burst ? signInDelays.freeDuringBurst : signInDelays.free;
  if (!lastAt || count < free) return 0;
  const delay = Math.min(signInDelays.maxSeconds, signInDelays.baseSeconds * 2 ** (count - free));
  return Math.max(0, Math.ceil((lastAt.getTime() + delay * 1000 - now) / 1000));
}

/** Sessions last 30 days from sign-in; signing out or a password change ends them sooner. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Reset links last 30 minutes and work once. */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;

/**
 * Reset e-mails: per address (against one place flooding the service) and per typed e-mail
 * address, whether or not it has an account (so the limit itself says nothing about accounts).
 */
export const resetLimits = {
  requestsPerIp: (ip: string): Limit => ({ key: `reset:ip:${ip}`, max: 10, windowSeconds: 60 * 60 }),
  requestsPerAccount: (email: string): Limit => ({ key: `reset:acct:${email}`, max: 3, windowSeconds: 60 * 60 }),
  attemptsPerIp: (ip: string): Limit => ({ key: `reset:try:${ip}`, max: 30, windowSeconds: 15 * 60 }),
};

/** Links confirming a new e-mail address last a day. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export const emailChangeLimits = {
  requestsPerAccount: (userId: string): Limit => ({ key: `email-change:acct:${userId}`, max: 5, windowSeconds: 60 * 60 }),
};
