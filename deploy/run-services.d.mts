// Types of run-services.mjs, for the tests that import it.
import type { Writable } from 'node:stream';

export interface App {
  name: string;
  /** `balancer`: HAProxy in front of the replicas (`replicate`), run on `config`. */
  kind: 'service' | 'worker' | 'gateway' | 'balancer';
  /** Compiled entry relative to the repository root, e.g. services/auth/dist/main.js. */
  source: string;
  /** What runs: the bundle of `source` (deploy/bundle.mjs), e.g. services/auth/dist/main.bundle.mjs. */
  entry: string;
  port: number;
  /** Where it answers /health/ready, when not on `port` (the gateway's internal port). */
  readyPort?: number;
  /** Extra environment for this process only. */
  env: Record<string, string>;
  /** The balancer's HAProxy configuration. */
  config?: string;
}

export const FIRST_SERVICE_PORT: number;
export const FIRST_REPLICA_PORT: number;

export function discoverApps(root?: string, env?: NodeJS.ProcessEnv | Record<string, string>): App[];

/** `replicas` of each app on ports from `nextPort`, HAProxy (kind `balancer`) first, in front of them. */
export function replicate(apps: App[], replicas: number, options?: { env?: NodeJS.ProcessEnv | Record<string, string>; nextPort?: () => number }): App[];

export interface BalancedServer {
  name: string;
  port: number;
  /** Where its /health/ready answers. */
  checkPort: number;
}

export function haproxyConfig(options: {
  publicHost: string;
  publicPort: number;
  monitor?: { host: string; port: number };
  gateways: BalancedServer[];
  services: Array<{ name: string; port: number; servers: BalancedServer[] }>;
}): string;

/** `--replicas N`, `--replicas=N`, else REPLICAS, else 1. */
export function replicasOf(argv: string[], env?: NodeJS.ProcessEnv | Record<string, string>): number;

/** Throws with what to install when `apps` hold a balancer and HAProxy is not on PATH (or at HAPROXY). */
export function checkBalancer(apps: App[], env?: NodeJS.ProcessEnv | Record<string, string>): void;

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
