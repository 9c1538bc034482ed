import { describe, expect, it } from '@jest/globals';
import { BaseConfig } from './base.config.js';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    const config = loadConfig(BaseConfig, { PORT: '8081', UNRELATED: 'x' });
    expect(config.PORT).toBe(8081);
    expect(config.BUS_PREFIX).toBe('tl');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig(BaseConfig, { DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('names every bad setting in one message', () => {
    let error: unknown;
    try {
      loadConfig(BaseConfig, { PORT: 'eighty', DATABASE_URL: 'mysql://x', NATS_URL: 'nats://n:4222', S3_ENDPOINT: 'http://minio:9000', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT:');
    expect(message).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(message).toContain('LOG_LEVEL:');
    expect(message).toContain('S3_ACCESS_KEY: is required when S3_ENDPOINT is set');
    expect(message).toContain('INTERNAL_SECRET: is required when NATS_URL is set');
  });

  it('refuses a short internal secret', () => {
    expect(() => loadConfig(BaseConfig, { INTERNAL_SECRET: 'short' })).toThrow('INTERNAL_SECRET: must be at least 32 characters');
    expect(() => loadConfig(BaseConfig, { INTERNAL_SECRET_ACCEPTED: `${'a'.repeat(32)},short` })).toThrow('INTERNAL_SECRET_ACCEPTED: must be keys of at least 32 characters, separated by commas');
    expect(loadConfig(BaseConfig, { INTERNAL_SECRET_ACCEPTED: `${'a'.repeat(32)},${'b'.repeat(40)}` }).INTERNAL_SECRET_ACCEPTED).toBe(`${'a'.repeat(32)},${'b'.repeat(40)}`);
  });
});
