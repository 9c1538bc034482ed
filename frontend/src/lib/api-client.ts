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

async function throwIfNotOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const body = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, body, response.headers);
}

/**
 * The fetch the typed client runs on: the shared request behaviour of spec 000, section 7. The
 * bearer token when one is held, cookies included, a non-ok answer rejected as an ApiError, `{}`
 * for a 204 or an empty body, and an answer that is not JSON rejected.
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

/**
 * The next page's cursor of a paginated answer (`X-Next-Cursor`), or null on the last page. A
 * server that answers the cursor it was given has nothing further either.
 */
export function nextCursorOf(response: Response, cursor?: string | null): string | null {
  const next = response.headers.get('X-Next-Cursor');
  return next && next !== cursor ? next : null;
}

/**
 * A multipart body for the typed client. The generated types describe a file field as a string;
 * the form goes out as it is, with the boundary the browser chooses.
 */
export function formBody<T>(form: FormData): NonNullable<T> {
  return form as unknown as NonNullable<T>;
}

/** What to show a person for a failed request: the server's message, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
