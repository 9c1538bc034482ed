// Types of run-services.mjs, for the tests that import it.
import type { Writable } from 'node:stream';

export interface App {
  name: string;
  kind: 'service' | 'worker' | 'gateway';
  /** Compiled entry relative to the repository root, e.g. services/auth/dist/main.js. */
  source: string;
  /** What runs: the bundle of `source` (deploy/bundle.mjs), e.g. services/auth/dist/main.bundle.mjs. */
  entry: string;
  port: number;
  /** Extra environment for this process only. */
  env: Record<string, string>;
}

export const FIRST_SERVICE_PORT: number;

export function discoverApps(root?: string, env?: NodeJS.ProcessEnv | Record<string, string>): App[];

export function sharedEnv(env?: NodeJS.ProcessEnv | Record<string, string | undefined>): NodeJS.ProcessEnv & { INTERNAL_SECRET: string };

export interface SuperviseOptions {
  root?: string;
  env?: NodeJS.ProcessEnv;
  out?: Writable;
  err?: Writable;
  readyTimeoutMs?: number;
  /** Pauses before restarting a child that died on its own: first, doubled up to max, reset once it ran stableAfter ms. */
  restartDelays?: { first: number; max: number; stableAfter: number };
}

export function supervise(apps: App[], options?: SuperviseOptions): { done: Promise<number>; stop: () => void; pidOf: (name: string) => number | undefined };
