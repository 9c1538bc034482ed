import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { openTestBus, type TestBus } from './support/test-bus.js';

const AUTH_DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'auth', version: '1' },
  paths: {
    '/api/auth/me': { get: { operationId: 'me', responses: { 200: { description: 'The signed-in user' } } } },
    '/api/users/{id}/profile': { get: { operationId: 'profile', responses: { 200: { description: 'A profile' } } } },
    '/api/not-routed': { get: { operationId: 'hidden', responses: { 200: { description: 'x' } } } },
  },
  components: { schemas: { UserDto: { type: 'object', properties: { id: { type: 'string' } } } } },
};

describe('gateway API description', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwopenapi');
    upstream = await startFakeUpstream(SECRET, AUTH_DOCUMENT);
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url } });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
  });

  it('publishes the services’ documents merged, limited to routed paths', async () => {
    const response = await request(gateway.url).get('/api/openapi.json').expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body.info.title).toBe('Timeliner API');
    expect(Object.keys(response.body.paths)).toEqual(['/api/auth/me', '/api/users/{id}/profile']);
    expect(response.body.components.schemas.UserDto).toEqual(AUTH_DOCUMENT.components.schemas.UserDto);
  });

  it('serves a viewer that loads only same-origin scripts', async () => {
    const page = await request(gateway.url).get('/api/docs').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    for (const src of [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      expect(src.startsWith('/api/docs/')).toBe(true);
      await request(gateway.url).get(src).expect(200);
    }
    await request(gateway.url).get('/api/docs/package.json').expect(404);
  });
});
