import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, newContext } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

/** The code an authenticator app would show for the secret, `offsetSteps` 30-second steps from now. */
const appCode = (secret: string, offsetSteps = 0) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/**
 * Two-step sign-in in a real Chromium against the real product: an authenticator app set up from
 * the shown secret (the test computes its codes), then a sign-in that asks for a code; and a
 * passkey created by Chromium's virtual authenticator (DevTools protocol WebAuthn domain), then a
 * sign-in with that passkey alone. The page is opened at localhost, since WebAuthn's relying party
 * must be a host name.
 */
describe('two-step sign-in journey', () => {
  let product: RunningProduct;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    // Authenticator secrets sealed at rest, as in production; every sign-in here comes from one
    // address, more than the gateway's 20 a minute allows one address.
    product = await startProduct('e2etwostep', { TOTP_SECRET_KEY: randomBytes(32).toString('hex'), AUTH_RATE_LIMIT_MAX: '200' });
    origin = product.baseUrl.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser(['--host-resolver-rules=MAP localhost 127.0.0.1']);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const signInScreen = async (page: Page, login: string, password: string) => {
    await heading(page, 'Welcome Back').waitFor();
    await page.getByLabel('Email or Username').fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  };

  describe.each(journeyViewports)('on a $name', (viewport) => {
    it('turns on two-step sign-in from the QR code\'s secret, then a password sign-in asks for a code (a wrong one refused, a recovery code once)', async () => {
      const account = await registerThroughApi(origin, newAccount('Hedy', 'Lamarr'));
      const { context, problems } = await newContext(browser, viewport, origin);
      await signInWithToken(context, account.token);
      const page = await context.newPage();

      await page.goto('/settings?tab=security');
      await heading(page, 'Two-step sign-in').waitFor();
      await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
      const qr = page.getByRole('img', { name: 'QR code to add Timeliner to your authenticator app' });
      await qr.waitFor();
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const secret = (await page.getByLabel('Setup key').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);

      await page.getByLabel('Code from the app').fill('000000');
      await page.getByRole('button', { name: 'Turn on', exact: true }).click();
      await page.getByText('That code is not right. Please try again.').waitFor();
      await page.getByLabel('Code from the app').fill(appCode(secret));
      await page.getByRole('button', { name: 'Turn on', exact: true }).click();
      await heading(page, 'Your recovery codes').waitFor();
      const codes = (await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()).map((code) => code.trim());
      expect(codes).toHaveLength(10);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText(/Two-step sign-in is on since .*10 recovery codes left\./).waitFor();

      // The password alone no longer opens a session.
      const api = await callApi<{ secondStep?: { token: string }; session?: unknown }>(origin, 'POST', '/api/auth/login', { body: { login: account.username, password: account.password } });
      expect(api.status).toBe(202);
      expect(api.body.session).toBeUndefined();

      // Signed out, on this device: the password, then a code.
      const signedOut = await newContext(browser, viewport, origin);
      const other = await signedOut.context.newPage();
      await other.goto('/');
      await signInScreen(other, account.username, account.password);
      await heading(other, 'Two-step sign-in').waitFor();
      await other.getByLabel('Code', { exact: true }).fill('123 45');
      await other.getByRole('button', { name: 'Verify' }).click();
      await other.getByText('Please enter the 6-digit code from your app').waitFor();
      // The confirming code's step is used; the app's next code (within the accepted window) is not.
      await other.getByLabel('Code', { exact: true }).fill(appCode(secret, 1));
      await other.getByRole('button', { name: 'Verify' }).click();
      await other.getByRole('button', { name: `account menu for ${account.displayName}` }).waitFor();

      // Another device, with a recovery code instead; the same code a second time is refused.
      for (const expected of ['signed in', 'refused'] as const) {
        const visit = await newContext(browser, viewport, origin);
        const tab = await visit.context.newPage();
        await tab.goto('/');
        await signInScreen(tab, account.email, account.password);
        await heading(tab, 'Two-step sign-in').waitFor();
        await tab.getByRole('button', { name: 'Use a recovery code' }).click();
        await tab.getByLabel('Recovery code').fill(codes[0]!);
        await tab.getByRole('button', { name: 'Verify' }).click();
        if (expected === 'signed in') await tab.getByRole('button', { name: `account menu for ${account.displayName}` }).waitFor();
        else await tab.getByText('That code is not right. Please try again.').waitFor();
        expect(visit.problems).toEqual([]);
        await visit.context.close();
      }

      // Turning it off needs the password.
      await page.reload();
      await page.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
      await page.getByLabel('Your password').fill('not my password');
      await page.getByRole('button', { name: 'Turn off', exact: true }).click();
      await page.getByText('Your password is not right').waitFor();
      await page.getByLabel('Your password').fill(account.password);
      await page.getByRole('button', { name: 'Turn off', exact: true }).click();
      await page.getByRole('button', { name: 'Set up two-step sign-in' }).waitFor();
      expect((await callApi(origin, 'POST', '/api/auth/login', { body: { login: account.username, password: account.password } })).status).toBe(200);

      expect(problems).toEqual([]);
      expect(signedOut.problems).toEqual([]);
      await signedOut.context.close();
      await context.close();
    }, 120_000);

    it('adds a passkey with the device\'s authenticator, names it, signs in with it alone, and removes it only with the password', async () => {
      const account = await registerThroughApi(origin, newAccount('Radia', 'Perlman'));
      const { context, problems } = await newContext(browser, viewport, origin);
      await signInWithToken(context, account.token);
      const page = await context.newPage();
      // A platform authenticator with user verification, as a phone's or laptop's.
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });

      await page.goto('/settings?tab=security');
      await heading(page, 'Passkeys').waitFor();
      await page.getByText('You have no passkey yet.').waitFor();
      await page.getByLabel('Name of the new passkey').fill('Laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      const list = page.getByRole('list', { name: 'Your passkeys' });
      await list.getByText('Laptop', { exact: true }).waitFor();
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);

      await page.getByRole('button', { name: 'Rename Laptop' }).click();
      await page.getByLabel('Passkey name').fill('Work laptop');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await list.getByText('Work laptop', { exact: true }).waitFor();

      // Signed out: the passkey alone signs in (no name, no password typed).
      await page.evaluate(() => localStorage.removeItem('authToken'));
      await page.goto('/');
      await heading(page, 'Welcome Back').waitFor();
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByRole('button', { name: `account menu for ${account.displayName}` }).waitFor();
      const token = await page.evaluate(() => localStorage.getItem('authToken'));
      const me = await callApi<{ id: string }>(origin, 'GET', '/api/auth/me', { token: token! });
      expect(me.body.id).toBe(account.id);
      const listed = await callApi<Array<{ name: string; lastUsedAt: string | null }>>(origin, 'GET', '/api/auth/passkeys', { token: token! });
      expect(listed.body).toEqual([expect.objectContaining({ name: 'Work laptop', lastUsedAt: expect.any(String) })]);

      // Removing it needs the password (or a passkey).
      await page.goto('/settings?tab=security');
      await page.getByRole('button', { name: 'Remove Work laptop' }).click();
      await page.getByLabel('Your password').fill('not my password');
      await page.getByRole('button', { name: 'Remove passkey' }).click();
      await page.getByText('Your password is not right').waitFor();
      await page.getByLabel('Your password').fill(account.password);
      await page.getByRole('button', { name: 'Remove passkey' }).click();
      await page.getByText('You have no passkey yet.').waitFor();

      // The authenticator still holds the credential, but the site no longer knows it.
      await page.evaluate(() => localStorage.removeItem('authToken'));
      await page.goto('/');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByText('That passkey could not be checked. Please try again.').waitFor();

      expect(problems).toEqual([]);
      await context.close();
    }, 120_000);
  });
});
