import { describe, expect, it } from '@jest/globals';
import { jsonResponse, mockFetch } from '../testing/test-utils';
import { api, ApiError, errorMessage, formBody, nextCursorOf, unwrap } from './api-client';
import { AUTH_TOKEN_KEY } from './auth-token';

describe('the typed client (the request helper of spec 000, section 7)', () => {
  it('sends paths starting with / to the page origin, with cookies included', async () => {
    const { requests } = mockFetch(() => jsonResponse(200, []));
    await expect(unwrap(api.GET('/api/timelines'))).resolves.toEqual([]);
    expect(requests[0]).toMatchObject({ method: 'GET', url: 'http://localhost/api/timelines', credentials: 'include' });
  });

  it('sends the stored token as a bearer authorization header', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'secret-token');
    const { requests } = mockFetch(() => jsonResponse(200, {}));
    await unwrap(api.GET('/api/auth/me'));
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer secret-token');
  });

  it('sends no authorization header without a token', async () => {
    const { requests } = mockFetch(() => jsonResponse(200, {}));
    await unwrap(api.GET('/api/auth/me'));
    expect(requests[0]?.headers.has('Authorization')).toBe(false);
  });

  it('sends a body as JSON', async () => {
    const { requests } = mockFetch(() => jsonResponse(201, { id: 1 }));
    await unwrap(api.POST('/api/posts', { body: { content: 'hi' } }));
    expect(requests[0]?.body).toEqual({ content: 'hi' });
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('sends form data as it is, letting the browser set its content type', async () => {
    const { requests } = mockFetch(() => jsonResponse(201, {}));
    const form = new FormData();
    form.append('file', 'file-contents');
    await unwrap(api.POST('/api/media/avatar', { body: formBody(form) }));
    expect(requests[0]?.body).toBe(form);
    expect(requests[0]?.headers.get('Content-Type')).not.toBe('application/json');
  });

  it('answers {} for a 204 and for an empty body', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(unwrap(api.POST('/api/auth/logout'))).resolves.toEqual({});
    mockFetch(() => new Response('', { status: 200 }));
    await expect(unwrap(api.DELETE('/api/posts/{id}', { params: { path: { id: '1' } } }))).resolves.toEqual({});
  });

  it('rejects a non-ok answer with "status: body"', async () => {
    const body = { statusCode: 401, error: 'Unauthorized', message: 'Invalid email/username or password' };
    mockFetch(() => jsonResponse(401, body));
    await expect(unwrap(api.POST('/api/auth/login', { body: { login: 'ada', password: 'x' } }))).rejects.toThrow(
      `401: ${JSON.stringify(body)}`,
    );
  });

  it('uses the status text when the error body is empty', async () => {
    mockFetch(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(unwrap(api.GET('/api/timelines'))).rejects.toThrow('503: Service Unavailable');
  });

  it('rejects a body that is not JSON', async () => {
    mockFetch(() => new Response('<html>oops</html>', { status: 200 }));
    await expect(unwrap(api.GET('/api/timelines'))).rejects.toThrow('Invalid JSON response from server');
  });
});

describe('nextCursorOf', () => {
  const answer = (next?: string) => new Response(null, { status: 204, headers: next ? { 'X-Next-Cursor': next } : {} });

  it("reads the next page's cursor, and none on the last page", () => {
    expect(nextCursorOf(answer('c2'), 'c1')).toBe('c2');
    expect(nextCursorOf(answer('c2'))).toBe('c2');
    expect(nextCursorOf(answer(), 'c1')).toBeNull();
  });

  it('ends a list whose server answers the cursor it was given', () => {
    expect(nextCursorOf(answer('c1'), 'c1')).toBeNull();
  });
});

describe('typed client', () => {
  it('applies the same bearer, cookie and error rules', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'typed-token');
    const { requests } = mockFetch(() =>
      jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'User not found' }),
    );
    const call = unwrap(api.GET('/api/users/{id}/profile', { params: { path: { id: 'abc' } } }));
    await expect(call).rejects.toBeInstanceOf(ApiError);
    await expect(call).rejects.toThrow('404: {"statusCode":404,"error":"Not Found","message":"User not found"}');
    expect(requests[0]).toMatchObject({ method: 'GET', url: 'http://localhost/api/users/abc/profile', credentials: 'include' });
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer typed-token');
  });

  it('answers the parsed body, {} for a 204, and rejects invalid JSON', async () => {
    mockFetch(() => jsonResponse(200, { id: 'u1' }));
    await expect(unwrap(api.GET('/api/auth/me'))).resolves.toEqual({ id: 'u1' });
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(unwrap(api.POST('/api/auth/logout'))).resolves.toEqual({});
    mockFetch(() => new Response('not json', { status: 200 }));
    await expect(unwrap(api.GET('/api/auth/me'))).rejects.toThrow('Invalid JSON response from server');
  });
});

describe('errorMessage', () => {
  it("shows the server's message, else the fallback", () => {
    const withMessage = new ApiError(409, 'Conflict', '{"statusCode":409,"error":"Conflict","message":"Username already taken"}', new Headers());
    expect(errorMessage(withMessage, 'Registration failed')).toBe('Username already taken');
    const htmlBody = new ApiError(502, 'Bad Gateway', '<html></html>', new Headers());
    expect(errorMessage(htmlBody, 'Registration failed')).toBe('Registration failed');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Login failed')).toBe('Login failed');
  });
});
