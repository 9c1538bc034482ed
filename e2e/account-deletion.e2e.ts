import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, registerThroughApi } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { mailsTo, waitForMail } from './support/mail.js';
import { type RunningProduct, startProduct } from './support/product.js';

/**
 * Deleting one's account, in a real Chromium against the real product: Settings › Account ›
 * Delete account asks for the password and signs out; signing in during the grace period offers to
 * cancel, which signs in with everything as it was; deleting again and letting the grace period
 * end deletes the account and what it made (the product runs with a grace period of one minute).
 */
const GRACE_SECONDS = 60;

describe('account deletion journey', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2edeletion', { ACCOUNT_DELETION_GRACE_SECONDS: String(GRACE_SECONDS), ACCOUNT_PURGE_INTERVAL_SECONDS: '1' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const signIn = async (page: Page, login: string, password: string) => {
    await heading(page, 'Welcome Back').waitFor();
    await page.getByLabel('Email or Username').fill(login);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  };
  const deleteFromSettings = async (page: Page, password: string) => {
    await page.goto('/settings?tab=account');
    await heading(page, 'Delete account').waitFor();
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Please enter your password').waitFor();
    await dialog.getByLabel('Your password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Your password is not right').waitFor();
    await dialog.getByLabel('Your password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    // Signed out at once, told when everything goes.
    await heading(page, 'Welcome Back').waitFor();
    await page.getByText('Your account will be deleted', { exact: true }).waitFor();
  };

  describe.each(viewports)('on a $name', (viewport) => {
    it('delete → grace → cancelled; delete → purged', async () => {
      const ada = newAccount('Ada', 'Lovelace');
      const bob = await registerThroughApi(product.baseUrl, newAccount('Bob', 'Babbage'));
      const registered = await callApi<{ session: { token: string } }>(product.baseUrl, 'POST', '/api/auth/register', { body: ada });
      expect(registered.status).toBe(201);
      const elsewhere = registered.body.session.token;
      const post = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: elsewhere, body: { content: 'Notes on the analytical engine' } });
      expect(post.status).toBe(201);

      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      const page = await context.newPage();
      await page.goto('/');
      await signIn(page, ada.username, ada.password);
      await page.getByRole('button', { name: `account menu for ${ada.displayName}` }).waitFor();

      const seen = await mailsTo(product.dataDir, ada.email);
      await deleteFromSettings(page, ada.password);
      // Every session ended, the one opened elsewhere too.
      expect((await callApi(product.baseUrl, 'GET', '/api/auth/me', { token: elsewhere })).status).toBe(401);
      const notice = await waitForMail(product.dataDir, ada.email, { seen });
      expect(notice.subject).toBe('Your Timeliner account will be deleted');

      // Signing in during the grace period offers to cancel; cancelling signs in, with everything as it was.
      await signIn(page, ada.username, ada.password);
      await heading(page, 'Your account is being deleted').waitFor();
      await page.getByText(/^Your account is scheduled to be deleted on \d{1,2} [A-Z][a-z]+ \d{4}\. Cancel the deletion to keep your account and sign in\.$/).waitFor();
      await page.getByRole('button', { name: 'Cancel deletion and sign in' }).click();
      await page.getByRole('button', { name: `account menu for ${ada.displayName}` }).waitFor();
      expect((await callApi(product.baseUrl, 'GET', `/api/posts/${post.body.id}`, { token: bob.token })).status).toBe(200);

      // Deleted again, and this time the grace period runs out: the account and its post are gone.
      await deleteFromSettings(page, ada.password);
      // From the request on, her post is out of everyone's sight (Bob's too) once social has heard of it, before the purge.
      const hiddenBy = Date.now() + 15_000;
      let seenByBob = await callApi(product.baseUrl, 'GET', `/api/posts/${post.body.id}`, { token: bob.token });
      while (seenByBob.status === 200 && Date.now() < hiddenBy) {
        await page.waitForTimeout(250);
        seenByBob = await callApi(product.baseUrl, 'GET', `/api/posts/${post.body.id}`, { token: bob.token });
      }
      expect(seenByBob.status).toBe(404);
      // The purge: her password then opens nothing (during the grace period it offers to cancel).
      // Every 5 s at most, within the sign-in attempts an address is allowed (both viewports share it).
      const deadline = Date.now() + (GRACE_SECONDS + 60) * 1000;
      const login = () => callApi(product.baseUrl, 'POST', '/api/auth/login', { body: { login: ada.username, password: ada.password } });
      let answer = await login();
      while (answer.status === 202 && Date.now() < deadline) {
        await page.waitForTimeout(5000);
        answer = await login();
      }
      expect(answer.status).toBe(401);
      expect((await callApi(product.baseUrl, 'GET', `/api/posts/${post.body.id}`, { token: bob.token })).status).toBe(404);
      await signIn(page, ada.username, ada.password);
      await page.getByText('Invalid email/username or password').waitFor();
      expect((await callApi(product.baseUrl, 'GET', `/api/users/${bob.id}/followers`, { token: bob.token })).status).toBe(200);

      expect(problems).toEqual([]);
      await context.close();
    }, 200_000);
  });
});
