import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { mailsTo, type ReceivedMail, waitForMail } from './support/mail.js';
import { type RunningProduct, startProduct } from './support/product.js';

/**
 * Accounts people can trust: a forgotten password is reset from the e-mailed link (which works
 * once) and every session that was open ends; in a real Chromium against the real product, with
 * the e-mail read from the file mail adapter's `.eml` files.
 */
describe('account security journey', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2esecurity');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const resetLinkIn = (mail: ReceivedMail): string => {
    const link = /(https?:\/\/[^\s"<>]+\/reset-password\/[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(mail.text)?.[1];
    if (!link) throw new Error(`no reset link in ${mail.file}:\n${mail.text}`);
    return link;
  };
  const register = async (account = newAccount('Ada', 'Lovelace')) => {
    const answer = await callApi<{ session: { token: string } }>(product.baseUrl, 'POST', '/api/auth/register', { body: account });
    expect(answer.status).toBe(201);
    return { account, token: answer.body.session.token };
  };

  describe.each(viewports)('on a $name', (viewport) => {
    it('forgot password → e-mail → new password → the old sessions are gone and the link works once', async () => {
      const { account, token: elsewhere } = await register();
      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      const page = await context.newPage();

      await page.goto('/');
      await heading(page, 'Welcome Back').waitFor();
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await heading(page, 'Forgot your password?').waitFor();
      const before = await mailsTo(product.dataDir, account.email);
      await page.getByLabel('Email').fill(account.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText('If an account uses that address, we have sent it a link').waitFor();

      const mail = await waitForMail(product.dataDir, account.email, { seen: before });
      expect(mail.subject).toBe('Reset your Timeliner password');
      const link = resetLinkIn(mail);
      expect(new URL(link).origin).toBe(new URL(product.baseUrl).origin);

      await page.goto(link);
      await heading(page, 'Choose a new password').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('qwerty123');
      await page.getByLabel('Repeat new password').fill('qwerty123');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText('This password is one of the most common').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('tide-tables-at-dawn');
      await page.getByLabel('Repeat new password').fill('tide-tables-at-dawn');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await heading(page, 'Password changed').waitFor();

      // The session opened elsewhere before the reset is refused at once.
      expect((await callApi(product.baseUrl, 'GET', '/api/auth/me', { token: elsewhere })).status).toBe(401);

      await page.getByRole('link', { name: 'Sign in' }).click();
      await heading(page, 'Welcome Back').waitFor();
      await page.getByLabel('Email or Username').fill(account.username);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Invalid email/username or password').waitFor();
      await page.getByLabel('Password').fill('tide-tables-at-dawn');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByRole('button', { name: `account menu for ${account.displayName}` }).waitFor();

      // The link has been used.
      const again = await context.newPage();
      await again.goto(link);
      await again.getByLabel('New password', { exact: true }).fill('another-long-secret');
      await again.getByLabel('Repeat new password').fill('another-long-secret');
      await again.getByRole('button', { name: 'Set new password' }).click();
      await again.getByText('This reset link is invalid or has expired. Please ask for a new one.').waitFor();

      const notice = await waitForMail(product.dataDir, account.email, { seen: [...before, mail.file] });
      expect(notice.subject).toBe('Your Timeliner password was changed');
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  });

  describe.each(viewports)('Settings, Security, on a $name', (viewport) => {
    it('lists the sessions, signs one out, changes the password (others signed out) and the e-mail address (confirmed from the new one)', async () => {
      const { account, token: phoneToken } = await register(newAccount('Grace', 'Hopper'));
      const tablet = await callApi<{ session: { token: string } }>(product.baseUrl, 'POST', '/api/auth/login', { body: { login: account.username, password: account.password } });
      expect(tablet.status).toBe(200);
      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      const page = await context.newPage();

      await page.goto('/');
      await page.getByLabel('Email or Username').fill(account.username);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByRole('button', { name: `account menu for ${account.displayName}` }).waitFor();

      await page.goto('/settings');
      await page.getByRole('tab', { name: 'Security' }).click();
      const sessions = page.getByRole('list', { name: 'Sessions' });
      await sessions.getByText('This device').waitFor();
      expect(await sessions.getByRole('listitem').count()).toBe(3);

      // One session signed out by hand: refused at once through the gateway.
      await sessions.getByRole('button', { name: /^Sign out / }).first().click();
      await page.getByText('Session signed out', { exact: true }).waitFor();
      for (let i = 0; i < 50 && (await sessions.getByRole('listitem').count()) !== 2; i += 1) await page.waitForTimeout(100);
      expect(await sessions.getByRole('listitem').count()).toBe(2);
      const stillIn = [phoneToken, tablet.body.session.token];
      const answers = await Promise.all(stillIn.map((token) => callApi(product.baseUrl, 'GET', '/api/auth/me', { token })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);

      // The password: the current one is needed; every other session ends, this one stays.
      await page.getByLabel('Current password').first().fill(account.password);
      await page.getByLabel('New password', { exact: true }).fill('harbour-lights-at-ten');
      await page.getByLabel('Repeat new password').fill('harbour-lights-at-ten');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed', { exact: true }).waitFor();
      for (const token of stillIn) expect((await callApi(product.baseUrl, 'GET', '/api/auth/me', { token })).status).toBe(401);
      for (let i = 0; i < 50 && (await sessions.getByRole('listitem').count()) !== 1; i += 1) await page.waitForTimeout(100);
      expect(await sessions.getByRole('listitem').count()).toBe(1);

      // The e-mail address: confirmed from the new address, the old one told.
      const newEmail = `moved_${account.username}@example.org`;
      const seenOld = await mailsTo(product.dataDir, account.email);
      await page.getByLabel('New email address').fill(newEmail);
      await page.getByLabel('Current password').nth(1).fill('harbour-lights-at-ten');
      await page.getByRole('button', { name: 'Send confirmation link' }).click();
      await page.getByText(`We have sent a link to ${newEmail}`).waitFor();
      // The old address is told (the password change's notice, sent just before, may land after this point).
      await waitForMail(product.dataDir, account.email, { seen: seenOld, subject: 'Your Timeliner e-mail address is being changed' });
      const confirmation = await waitForMail(product.dataDir, newEmail);
      const link = /(https?:\/\/[^\s"<>]+\/confirm-email\/[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(confirmation.text)?.[1];
      expect(link).toBeDefined();
      await page.goto(link!);
      await page.getByRole('button', { name: 'Confirm new address' }).click();
      await heading(page, 'Email address changed').waitFor();
      await page.goto('/settings');
      await page.getByText(`Signed in as ${newEmail}`).waitFor();

      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  });
});
