import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

/**
 * Spec 000 sections 2 and 4, spec 001 sections 2, 5 and 8: signing up, the signed-in shell,
 * staying signed in across a reload, signing out, and a wrong password — in a real Chromium
 * against the real product.
 */
describe('account journey', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2eauth');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

  describe.each(viewports)('on a $name', (viewport) => {
    it('signs up, sees the shell, stays signed in across a reload, logs out; a wrong password shows the message', async () => {
      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      const page = await context.newPage();
      const tag = randomBytes(4).toString('hex');
      const user = { name: 'Grace Hopper', username: `grace_${tag}`, email: `grace_${tag}@example.com`, password: 'cobol-forever' };

      await page.goto('/studio');
      await heading(page, 'Welcome Back').waitFor();
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Please enter your email or username').waitFor();

      await page.getByRole('button', { name: 'Sign up' }).click();
      await heading(page, 'Create Account').waitFor();
      await page.getByLabel('Full Name').fill(user.name);
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Email').fill('not-an-email');
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Please enter a valid email address').waitFor();
      await page.getByLabel('Email').fill(user.email);
      await page.getByRole('button', { name: 'Create Account' }).click();

      const menu = page.getByRole('button', { name: `account menu for ${user.name}` });
      await menu.waitFor();
      const bottomNav = page.getByRole('navigation', { name: 'Main' });
      expect(await bottomNav.isVisible()).toBe(viewport.name === 'phone');
      expect(await page.evaluate(() => localStorage.getItem('authToken'))).toMatch(/^[A-Za-z0-9_-]{43}$/);

      await page.reload();
      await menu.waitFor();

      await menu.click();
      await page.getByRole('menu').getByText(user.email).waitFor();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await heading(page, 'Welcome Back').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

      await page.getByLabel('Email or Username').fill(user.username);
      await page.getByLabel('Password').fill('not-my-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Invalid email/username or password').waitFor();

      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await menu.waitFor();

      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  });
});
