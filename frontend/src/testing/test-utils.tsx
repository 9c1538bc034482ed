import { jest } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '../app/provider';
import { createRoutes } from '../app/router';
import { queryDefaults } from '../lib/react-query';
import { AUTH_TOKEN_KEY } from '../lib/auth-token';

/** The app's query defaults, minus retries and timers that would slow a test down. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { ...queryDefaults.queries, retry: false, gcTime: Infinity },
      mutations: { retry: false },
    },
  });
}

export function jsonResponse(status: number, body: unknown, init: ResponseInit = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
    ...init,
  });
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
  keepalive?: boolean;
}

export type FetchHandler = (request: RecordedRequest) => Response | Promise<Response>;

/**
 * Replaces `fetch` with `handler` for the test. Every request is recorded in the returned list
 * in a single shape, whether it was made with a Request object or with a URL and options.
 */
export function mockFetch(handler: FetchHandler) {
  const requests: RecordedRequest[] = [];
  const fake = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    let recorded: RecordedRequest;
    if (input instanceof Request) {
      // A form the page sent (see test/jsdom-environment.mjs), else the JSON body.
      const form = (input as Request & { formBody?: FormData }).formBody;
      const text = form ? '' : await input.clone().text();
      recorded = {
        method: input.method,
        url: input.url,
        headers: input.headers,
        body: form ?? (text ? (JSON.parse(text) as unknown) : undefined),
        credentials: input.credentials,
        keepalive: input.keepalive,
      };
    } else {
      const raw = init?.body;
      recorded = {
        method: init?.method ?? 'GET',
        url: String(input),
        headers: new Headers(init?.headers),
        body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw,
        credentials: init?.credentials,
        keepalive: init?.keepalive,
      };
    }
    requests.push(recorded);
    return handler(recorded);
  });
  globalThis.fetch = fake as unknown as typeof fetch;
  return { fetch: fake, requests };
}

export const testUser = {
  id: '5f0c8a52-0a3e-4a8e-9d8c-2b4f0e6c1a11',
  username: 'ada',
  displayName: 'Ada Lovelace',
  email: 'ada@example.com',
  avatar: null,
  bio: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

export function signIn(token = 'test-token'): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
}

/** Renders the whole app at `path` with an in-memory router. */
export function renderApp(path: string, queryClient: QueryClient = createTestQueryClient()) {
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}
