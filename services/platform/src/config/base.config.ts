import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Settings every process shares. Services extend it with their own. */
export class BaseConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsString()
  HOST: string = '0.0.0.0';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: string = 'info';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_URL: string | undefined = undefined;

  /**
   * The most connections this process keeps open to Postgres. Kubernetes sets it per Deployment
   * so that the replicas' pools fit Postgres's max_connections (k8s/README.md, "Connection budget").
   */
  @IsInt()
  @Min(2)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * How long a query waits for one of the pool's connections (or for a new one to connect) before
   * it fails and its request is answered 503 with Retry-After: a busy or unreachable database is
   * said quickly rather than queued behind. Test runs raise it (three test files at a time on two
   * cores keep bursts of requests waiting far longer than a production machine would).
   */
  @IsInt()
  @Min(1)
  @Max(120)
  DATABASE_POOL_WAIT_SECONDS: number = 5;

  /**
   * `transaction` when DATABASE_URL (and DATABASE_READ_URL) reach Postgres through a pooler in
   * transaction mode (PgBouncer, CNPG's Pooler): the schema is set per transaction and prepared
   * statements are unnamed (services/platform/src/database/pooled-client.ts).
   */
  @IsIn(['session', 'transaction'])
  DATABASE_POOL_MODE: 'session' | 'transaction' = 'session';

  /** A streaming replica for the reads that may lag by a second (feed pages, search, profiles); absent: the primary. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_READ_URL: string | undefined = undefined;

  /** How long after a person's own write their reads stay on the primary. */
  @IsInt()
  @Min(0)
  @Max(3600)
  DATABASE_READ_YOUR_WRITES_SECONDS: number = 5;

  @IsOptional()
  @Matches(/^(nats|tls|wss?):\/\/.+/, { message: 'must be a nats:// URL (comma-separate several servers)' })
  NATS_URL: string | undefined = undefined;

  @Matches(/^[a-z][a-z0-9]{0,31}$/, { message: 'must be lower-case letters and digits, starting with a letter' })
  BUS_PREFIX: string = 'tl';

  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'must be an http(s):// URL' })
  S3_ENDPOINT: string | undefined = undefined;

  @ValidateIf((c: BaseConfig) => c.S3_ENDPOINT !== undefined)
  @IsString({ message: 'is required when S3_ENDPOINT is set' })
  S3_ACCESS_KEY: string | undefined = undefined;

  @ValidateIf((c: BaseConfig) => c.S3_ENDPOINT !== undefined)
  @IsString({ message: 'is required when S3_ENDPOINT is set' })
  S3_SECRET_KEY: string | undefined = undefined;

  @Matches(/^[a-z0-9][a-z0-9.-]{2,62}$/, { message: 'must be a valid bucket name' })
  S3_BUCKET: string = 'timeliner';

  @IsString()
  S3_REGION: string = 'us-east-1';

  @IsString()
  DATA_DIR: string = '.data';

  /** HMAC key for the identity headers the gateway signs; shared by the gateway and services. */
  @ValidateIf((c: BaseConfig) => c.NATS_URL !== undefined || c.INTERNAL_SECRET !== undefined)
  @IsString({ message: 'is required when NATS_URL is set (services run as separate processes)' })
  @MinLength(32, { message: 'must be at least 32 characters' })
  INTERNAL_SECRET: string | undefined = undefined;

  /**
   * Other identity keys services still accept, comma-separated (never used to sign): during a
   * rotation the next key, then the previous one (k8s/OPERATIONS.md).
   */
  @IsOptional()
  @Matches(/^[^,\s]{32,}(,[^,\s]{32,})*$/, { message: 'must be keys of at least 32 characters, separated by commas' })
  INTERNAL_SECRET_ACCEPTED: string | undefined = undefined;

  /** Days events and unclaimed jobs are kept by the JetStream streams this process creates. */
  @IsInt()
  @Min(1)
  @Max(3650)
  STREAM_MAX_AGE_DAYS: number = 7;

  /** Copies of each stream in a NATS cluster (3 in a clustered production NATS). */
  @IsInt()
  @Min(1)
  @Max(5)
  STREAM_REPLICAS: number = 1;

  /**
   * `keep`: a stream that exists keeps the settings it has (an operator's change survives a
   * restart) and a difference is logged; `apply`: the two settings above are applied to it.
   */
  @IsIn(['keep', 'apply'])
  STREAM_SETTINGS: 'keep' | 'apply' = 'keep';

  /** The JetStream stream settings of this configuration, for the bus and the work queue. */
  streamOptions(): { maxAgeMs: number; replicas: number; settings: 'keep' | 'apply' } {
    return { maxAgeMs: this.STREAM_MAX_AGE_DAYS * 86_400_000, replicas: this.STREAM_REPLICAS, settings: this.STREAM_SETTINGS };
  }

  /** Seconds a starting process waits for Postgres and NATS to answer before it gives up. */
  @IsInt()
  @Min(0)
  @Max(3600)
  STARTUP_WAIT_SECONDS: number = 120;

  /** Seconds to let in-flight requests and messages finish on SIGTERM. */
  @IsInt()
  @Min(0)
  @Max(300)
  SHUTDOWN_GRACE_SECONDS: number = 20;
}
