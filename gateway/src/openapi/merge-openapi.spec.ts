import { describe, expect, it } from '@jest/globals';
import { RouteTable } from '../routes/route-table.js';
import { mergeOpenApi, OpenApiMergeError, routedOnly } from './merge-openapi.js';
import type { OpenApiDocument } from './openapi-document.js';

const error = { type: 'object', properties: { statusCode: { type: 'number' }, message: { type: 'string' } } };

const auth: OpenApiDocument = {
  openapi: '3.0.0',
  info: { title: 'auth', version: '1' },
  tags: [{ name: 'auth' }],
  paths: {
    '/api/auth/me': { get: { operationId: 'me', tags: ['auth'] } },
    '/api/users/{id}/profile': { get: { operationId: 'profile' } },
  },
  components: { schemas: { UserDto: { type: 'object' }, ErrorBody: error }, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
};

const timelines: OpenApiDocument = {
  openapi: '3.0.0',
  info: { title: 'timelines', version: '1' },
  tags: [{ name: 'timelines' }, { name: 'auth' }],
  paths: { '/api/timelines': { post: { operationId: 'create' }, get: { operationId: 'list' } } },
  components: { schemas: { ErrorBody: error, TimelineDto: { type: 'object' } }, securitySchemes: { bearer: { scheme: 'bearer', type: 'http' } } },
};

describe('mergeOpenApi', () => {
  it('merges paths, components and tags into one sorted document', () => {
    const merged = mergeOpenApi({ timelines, auth });
    expect(Object.keys(merged.paths!)).toEqual(['/api/auth/me', '/api/timelines', '/api/users/{id}/profile']);
    expect(Object.keys(merged.paths!['/api/timelines']!)).toEqual(['get', 'post']);
    expect(Object.keys(merged.components!.schemas!)).toEqual(['ErrorBody', 'TimelineDto', 'UserDto']);
    expect(merged.tags!.map((t) => t.name)).toEqual(['auth', 'timelines']);
    expect(merged.info).toEqual({ title: 'Timeliner API', version: '1' });
    expect(Object.keys(merged)).toEqual([...Object.keys(merged)].sort());
  });

  it('prints the same whatever the order of its inputs', () => {
    expect(JSON.stringify(mergeOpenApi({ auth, timelines }))).toBe(JSON.stringify(mergeOpenApi({ timelines, auth })));
  });

  it('refuses an operation described by two services', () => {
    const clash = { ...timelines, paths: { '/api/auth/me': { get: { operationId: 'other' } } } };
    expect(() => mergeOpenApi({ auth, timelines: clash })).toThrow(new OpenApiMergeError('GET /api/auth/me is described by both auth and timelines'));
  });

  it('refuses one component name with two meanings', () => {
    const clash = { ...timelines, components: { schemas: { UserDto: { type: 'string' } } } };
    expect(() => mergeOpenApi({ auth, timelines: clash })).toThrow(/components\.schemas\.UserDto is described differently by auth and timelines/);
  });

  it('keeps only the paths the gateway routes to the describing service', () => {
    const routes = new RouteTable([{ pattern: '/api/auth/*', service: 'auth' }, { pattern: '/api/users/:id/profile', service: 'auth' }]);
    const withExtra = { ...auth, paths: { ...auth.paths, '/api/internal/thing': { get: {} } } };
    const { document, dropped } = routedOnly('auth', withExtra, routes);
    expect(Object.keys(document.paths!)).toEqual(['/api/auth/me', '/api/users/{id}/profile']);
    expect(dropped).toEqual(['/api/internal/thing']);
  });
});
