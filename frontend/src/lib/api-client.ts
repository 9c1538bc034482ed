import createClient from 'openapi-fetch';
import type { components, paths } from '../api/schema.gen';
import { getAuthToken } from './auth-token';

export type ApiSchemas = components['schemas'];

/**
 * A non-ok answer from the API. Its text is `${status}: ${body or status text}` (spec 000,
 * section 8), so retry rules and logs can read the status from the message alone.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;

  constructor(status: number, statusText: string, body: string, headers: Headers) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  /** The `message` of the API's ErrorDto body, when the body is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const { message } = parsed;
        if (typeof message === 'string' && message) return message;
      }
    } catch {
      // Not JSON (a proxy's HTML page, for instance): no server message.
    }
    return undefined;
  }
}

export const INVALID_JSON_MESSAGE = 'Invalid JSON response from server';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function resolveUrl(path: string): string {
  return path.startsWith('/') ? `${window.location.origin}${path}` : path;
}

async function throwIfNotOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const body = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, body, response.headers);
}

async function parseJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.status === 204 || text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(INVALID_JSON_MESSAGE);
  }
}

/**
 * The shared request helper of spec 000 section 7: same origin for paths starting with '/', the
 * bearer token when one is held, JSON bodies (form data as-is), cookies included, `{}` for a 204
 * or an empty body. The caller names the answer's type; the typed client below is preferred for
 * every operation the OpenAPI document describes.
 */
export async function apiRequest<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  return (await apiRequestWithHeaders<T>(method, path, body)).data;
}

/** `apiRequest`, also giving the answer's headers (a list's `X-Next-Cursor`, for instance). */
export async function apiRequestWithHeaders<T = unknown>(
  method: HttpMethod,
  path: string,
  body?: unknown,
): Promise<{ data: T; headers: Headers }> {
  const headers = new Headers();
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const response = await fetch(resolveUrl(path), { method, headers, body: payload, credentials: 'include' });
  await throwIfNotOk(response);
  return { data: (await parseJsonBody(response)) as T, headers: response.headers };
}

/**
 * The fetch the typed client runs on: the same bearer, cookie, error and JSON rules as
 * `apiRequest`, so both report failures identically.
 */
async function typedClientFetch(request: Request): Promise<Response> {
  const token = getAuthToken();
  if (token) request.headers.set('Authorization', `Bearer ${token}`);
  const response = await throwIfNotOk(await fetch(request));
  const text = await response.text();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (response.status === 204 || text === '') return new Response(null, { ...init, status: 204 });
  try {
    JSON.parse(text);
  } catch {
    throw new Error(INVALID_JSON_MESSAGE);
  }
  return new Response(text, init);
}

/** Typed client over the generated OpenAPI paths. Non-ok answers reject with an ApiError. */
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  credentials: 'include',
  fetch: (request) => typedClientFetch(request),
});

/**
 * The data of a typed call. Failures already rejected in `typedClientFetch`, so a missing body
 * here is an empty answer, which the spec's helper reports as `{}`.
 */
export async function unwrap<T>(call: Promise<{ data?: T }>): Promise<T> {
  const { data } = await call;
  return data === undefined ? ({} as T) : data;
}

/** What to show a person for a failed request: the server's message, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
