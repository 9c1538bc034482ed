import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';

export interface Account {
  displayName: string;
  username: string;
  email: string;
  password: string;
}

/** A person no other test (or earlier run on the same database) has used. */
export function newAccount(first: string, last: string): Account {
  const tag = randomBytes(4).toString('hex');
  const handle = `${first.toLowerCase()}_${tag}`;
  return { displayName: `${first} ${last}`, username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' };
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * One call to the product's API through the gateway, as a browser would make it, on a connection
 * of its own (no keep-alive socket outlives the test).
 */
export function callApi<T = unknown>(baseUrl: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<ApiAnswer<T>> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          // Not JSON: the text is the answer.
        }
        resolve({ status: res.statusCode ?? 0, body: body as T });
      });
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(payload);
  });
}

export interface RegisteredAccount extends Account {
  id: string;
  token: string;
}

/**
 * Registers a secondary person through the API (POST /api/auth/register) and returns their
 * session token. The person a journey follows signs up through the screens instead.
 */
export async function registerThroughApi(baseUrl: string, account: Account): Promise<RegisteredAccount> {
  const answer = await callApi<{ user: { id: string }; session: { token: string } }>(baseUrl, 'POST', '/api/auth/register', { body: account });
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`registering ${account.username} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return { ...account, id: answer.body.user.id, token: answer.body.session.token };
}

/**
 * Signs a context in with a token before any page of it loads: the token is put in local storage
 * ('authToken') ahead of the app's own scripts, once per tab, so a later log-out still holds.
 */
export async function signInWithToken(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value: string) => {
    try {
      if (sessionStorage.getItem('e2e-token-seeded')) return;
      sessionStorage.setItem('e2e-token-seeded', '1');
      localStorage.setItem('authToken', value);
    } catch {
      // Storage unavailable (an opaque origin such as about:blank): nothing to seed.
    }
  }, token);
}

/**
 * Fills in and sends 'Create Account' from the sign-in screen that is showing, then waits for the
 * signed-in shell (or whatever the caller waits for next).
 */
export async function signUpThroughScreens(page: Page, account: Account): Promise<void> {
  await page.getByRole('heading', { name: 'Welcome Back', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.getByRole('heading', { name: 'Create Account', exact: true }).waitFor();
  await page.getByLabel('Full Name').fill(account.displayName);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
}
