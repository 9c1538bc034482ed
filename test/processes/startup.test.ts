import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const run = (entry: string, env: Record<string, string>) =>
  spawnSync(process.execPath, [path.join(root, entry)], { cwd: root, encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH ?? '', ...env } });

/** A process with bad or missing settings refuses to start, saying what is wrong. */
describe('start-up configuration', () => {
  it.each([
    ['services/auth/dist/main.js'],
    ['services/timelines/dist/main.js'],
    ['services/social/dist/main.js'],
    ['services/notifications/dist/main.js'],
    ['services/search/dist/main.js'],
    ['gateway/dist/main.js'],
  ])('%s stops with every problem named and exit code 78', (entry) => {
    const result = run(entry, { PORT: 'not-a-port', DATABASE_URL: 'mysql://nope', NATS_URL: 'nats://127.0.0.1:4222' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toContain('PORT:');
    expect(result.stderr).toContain('INTERNAL_SECRET:');
  });

  it.each(['auth', 'timelines', 'social', 'notifications', 'search', 'media'])('the %s service needs a database when run alone', (service) => {
    const result = run(`services/${service}/dist/main.js`, {});
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`DATABASE_URL: is required for the ${service} service`);
  });

  it('the gateway needs the address of every service its route table forwards to', () => {
    const result = run('gateway/dist/main.js', { INTERNAL_SECRET: 's'.repeat(32), AUTH_SERVICE_URL: 'http://127.0.0.1:3001' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('SOCIAL_SERVICE_URL: is required');
    expect(result.stderr).toContain('TIMELINES_SERVICE_URL: is required');
    expect(result.stderr).toContain('MEDIA_SERVICE_URL: is required');
    expect(result.stderr).toContain('NOTIFICATIONS_SERVICE_URL: is required');
    expect(result.stderr).toContain('SEARCH_SERVICE_URL: is required');
    expect(result.stderr).not.toContain('AUTH_SERVICE_URL');
  });
});
