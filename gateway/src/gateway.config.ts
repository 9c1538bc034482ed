import { fileURLToPath } from 'node:url';
import { BaseConfig } from '@timeliner/platform';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

const SERVICE_URL_SUFFIX = '_SERVICE_URL';

/** An upstream's base URL: scheme, host and port only (the gateway forwards the path as is). */
const ServiceUrl = (): PropertyDecorator => (target, key) => {
  IsOptional()(target, key);
  Matches(/^https?:\/\/[^/?#]+\/?$/, { message: 'must be an http(s):// URL without a path' })(target, key);
};

// The built web app, relative to the repository (this file sits two levels below it both as
// source and as build output).
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../frontend/dist/', import.meta.url));

export class GatewayConfig extends BaseConfig {
  override PORT: number = 8080;

  // Upstream services, `<NAME>_SERVICE_URL`; adding one is one line here and its routes in
  // routes/route-table.ts.
  @ServiceUrl() AUTH_SERVICE_URL: string | undefined = undefined;
  @ServiceUrl() TIMELINES_SERVICE_URL: string | undefined = undefined;
  @ServiceUrl() SOCIAL_SERVICE_URL: string | undefined = undefined;
  @ServiceUrl() MEDIA_SERVICE_URL: string | undefined = undefined;
  @ServiceUrl() SEARCH_SERVICE_URL: string | undefined = undefined;
  @ServiceUrl() NOTIFICATIONS_SERVICE_URL: string | undefined = undefined;

  /** Directory of the built frontend (index.html, assets/, sw.js). */
  @IsString()
  WEB_DIST: string = DEFAULT_WEB_DIST;

  /** `https://timeliner.example`: the origin browsers use; WebSocket upgrades must come from it. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#]+$/, { message: 'must be an origin such as https://timeliner.example (no path)' })
  PUBLIC_ORIGIN: string | undefined = undefined;

  /**
   * Which X-Forwarded-* headers to believe for the client address: empty (none, the socket's
   * peer is the client), `true` (all), a hop count, or comma-separated addresses/CIDRs of the
   * load balancers in front.
   */
  @IsString()
  TRUST_PROXY: string = '';

  /**
   * `redis://host:6379` (or `rediss://` for TLS): every rate limit below is then counted in Redis,
   * one budget per client across all gateway replicas. Unset: each replica counts in its own
   * memory (one process, or limits that grow with the replica count).
   */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL: string | undefined = undefined;

  /** Put before the gateway's keys in Redis, so installations (or test runs) can share one. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be letters, digits, colons, dashes or underscores' })
  REDIS_KEY_PREFIX: string = 'tl:ratelimit:';

  /** Requests per client address per window, all routes together. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_MAX: number = 1200;

  @IsInt()
  @Min(1)
  RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /** Login and registration attempts per client address per window (the auth service also limits per account). */
  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT_MAX: number = 20;

  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /** Content writes (new timelines, posts, comments, invitations, exports, reports) per person per window. */
  @IsInt()
  @Min(1)
  CONTENT_RATE_LIMIT_MAX: number = 60;

  @IsInt()
  @Min(1)
  CONTENT_RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /**
   * Writes by someone not signed in (views, downloads, shares), per address per window. Sign-in
   * and registration have their own, tighter limit and are not counted here.
   */
  @IsInt()
  @Min(1)
  ANONYMOUS_WRITE_LIMIT_MAX: number = 30;

  @IsInt()
  @Min(1)
  ANONYMOUS_WRITE_LIMIT_WINDOW_SECONDS: number = 60;

  /** How long a verified session is trusted without asking the auth service again. */
  @IsInt()
  @Min(0)
  @Max(30)
  SESSION_CACHE_TTL_SECONDS: number = 30;

  /** Time the auth service gets to answer a session check before the request fails with 503. */
  @IsInt()
  @Min(100)
  @Max(30_000)
  AUTH_TIMEOUT_MS: number = 2_000;

  /** Time an upstream gets to start its answer (and between chunks of it) before the gateway answers 504. */
  @IsInt()
  @Min(1)
  @Max(3_600)
  UPSTREAM_TIMEOUT_SECONDS: number = 60;

  /**
   * A request body must average BODY_MIN_BYTES_PER_SECOND over every BODY_TIMEOUT_SECONDS, or
   * it gets 408 and its connection is closed (a silent client never holds a service connection).
   */
  @IsInt()
  @Min(1)
  @Max(3_600)
  BODY_TIMEOUT_SECONDS: number = 30;

  @IsInt()
  @Min(1)
  BODY_MIN_BYTES_PER_SECOND: number = 1024;

  /**
   * Open connections per client address; 0 turns the limit off. Counted on the socket's address,
   * so it is off behind a trusted proxy (TRUST_PROXY set), where the ingress limits connections.
   */
  @IsInt()
  @Min(0)
  MAX_CONNECTIONS_PER_ADDRESS: number = 128;

  /**
   * Port for `/metrics` and `/health/*` only (probes and scrapes); the public port always answers
   * 404 for them. Default 8081; 0 picks a free port. The address is logged (and printed by
   * `npm start` and `npm run start:services`) at start.
   */
  @IsInt()
  @Min(0)
  @Max(65_535)
  INTERNAL_PORT: number = 8081;

  /**
   * Address the internal port listens on: loopback by default, so only this machine (or this
   * container: its healthcheck) reads the metrics; `0.0.0.0` where probes and scrapes come from
   * elsewhere (Kubernetes sets it, its NetworkPolicy keeps the port to the cluster's monitoring).
   */
  @IsString()
  INTERNAL_HOST: string = '127.0.0.1';

  /** Upstream base URLs by service name (`auth` → AUTH_SERVICE_URL), for the services configured. */
  serviceUrls(): Record<string, string> {
    const urls: Record<string, string> = {};
    for (const [key, value] of Object.entries(this)) {
      if (key.endsWith(SERVICE_URL_SUFFIX) && typeof value === 'string') {
        urls[key.slice(0, -SERVICE_URL_SUFFIX.length).toLowerCase()] = value.replace(/\/$/, '');
      }
    }
    return urls;
  }

  /** TRUST_PROXY in the form Fastify's `trustProxy` takes. */
  trustProxy(): boolean | string | ((address: string, hop: number) => boolean) {
    const value = this.TRUST_PROXY.trim();
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      return (_address, hop) => hop < hops;
    }
    return value;
  }
}
