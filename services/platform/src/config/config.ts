import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/**
 * Configuration is read once, from the environment, into a validated class. A bad or missing
 * setting stops start-up with one message that names every problem, instead of a failure deep
 * inside a driver minutes later.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const describe = (errors: ValidationError[], prefix = ''): string[] =>
  errors.flatMap((e) => {
    // One problem per setting: the first declared rule (class-validator lists them bottom-up).
    const own = Object.values(e.constraints ?? {}).reverse().slice(0, 1).map((m) => `${prefix}${e.property}: ${m}`);
    return [...own, ...describe(e.children ?? [], `${prefix}${e.property}.`)];
  });

/**
 * Builds `cls` from the environment. Only the class's own keys are read; empty strings count as
 * unset so `FOO=` in an env file falls back to the default.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    plain[key] = value === undefined || value === '' ? defaults[key] : value;
  }
  const config = plainToInstance(cls, plain, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) throw new ConfigError(describe(errors));
  return config;
}
