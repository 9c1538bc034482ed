import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';
import { button, heading, toast } from './support/screens.js';

/** A 300x200 PNG made by ffmpeg: not square, so the stored picture shows it was cropped. */
function makePicture(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-profile-'));
  const picture = path.join(dir, 'me.png');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=300x200', '-frames:v', '1', picture]);
  return picture;
}

interface ProfileAnswer {
  displayName: string;
  bio: string | null;
  location: string | null;
  website: string | null;
  avatar: string | null;
  isPrivate: boolean;
  followersCount: number;
  followingCount: number;
}

/**
 * Spec 001 "Profile" and issue 11's web app: a person edits their profile with a new picture and
 * sees it after a reload; follows someone from their profile and sees the counts change on both
 * profiles, also after a reload; opens the Followers, Following and Activity tabs. Real Chromium,
 * the real product, on a phone and on a desktop.
 */
describe('profile journey', () => {
  let product: RunningProduct;
  let browser: Browser;
  let picture: string;

  beforeAll(async () => {
    picture = makePicture();
    product = await startProduct('e2eprofile');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    let context: BrowserContext | undefined;
    const problems: string[] = [];

    afterAll(async () => {
      await context?.close().catch(() => undefined);
    });

    async function open(token: string): Promise<Page> {
      context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      watchPages(context, problems);
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      return context.newPage();
    }

    const profileOf = async (id: string, token: string) => (await callApi<ProfileAnswer>(product.baseUrl, 'GET', `/api/users/${id}/profile`, { token })).body;
    const activityTypes = async (id: string, token: string) =>
      (await callApi<Array<{ activityType: string }>>(product.baseUrl, 'GET', `/api/users/${id}/activity`, { token })).body.map((item) => item.activityType);
    /** The figure under a count's label in the profile's header. */
    const count = (page: Page, label: string): Promise<string> =>
      page.locator('.profile-stats__item').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').innerText();
    const waitForCount = (page: Page, label: string, value: string) =>
      eventually(`${label} to show ${value}`, async () => ((await count(page, label)) === value ? true : undefined));
    const header = (page: Page): Locator => page.locator('.profile__header');
    const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

    it('edits the profile with a new picture, which stays after a reload', async () => {
      const me = await registerThroughApi(product.baseUrl, newAccount('Pat', 'Painter'));
      const page = await open(me.token);

      await page.goto(`/profile/${me.id}`);
      await heading(page, me.displayName).waitFor();
      expect(await header(page).locator('img').count()).toBe(0);
      await button(page, 'Edit Profile').click();
      const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
      await dialog.waitFor();

      // A bad website is refused by the field before anything is sent.
      await dialog.getByLabel('Website').fill('ftp://files.example.com');
      await button(dialog, 'Save Changes').click();
      await dialog.getByText('Website must be a link starting with http:// or https://').waitFor();

      await dialog.getByLabel('Display name').fill('Pat Q. Painter');
      await dialog.getByLabel('Bio').fill('Paints skies.\nFilms them too.');
      await dialog.getByLabel('Location').fill('Lisbon');
      await dialog.getByLabel('Website').fill('https://pat.example.com/work');
      await dialog.getByLabel('Choose photo').setInputFiles(picture);
      await dialog.getByText('me.png: shown here as a preview until you save.').waitFor();
      expect(await dialog.locator('img.avatar__image').getAttribute('src')).toMatch(/^blob:/);
      await button(dialog, 'Save Changes').click();
      await dialog.waitFor({ state: 'detached' });
      await toast(page, 'Profile updated').waitFor();

      const shown = async () => {
        await heading(page, 'Pat Q. Painter').waitFor();
        await page.getByText('Paints skies.').waitFor();
        await page.getByRole('list', { name: 'About' }).getByRole('listitem').filter({ hasText: 'Lisbon' }).waitFor();
        const link = page.getByRole('link', { name: 'pat.example.com/work' });
        expect(await link.getAttribute('href')).toBe('https://pat.example.com/work');
        expect(await link.getAttribute('rel')).toContain('noopener noreferrer nofollow');
        const avatar = header(page).locator('img.avatar__image');
        await avatar.waitFor();
        expect(await avatar.getAttribute('src')).toMatch(new RegExp(`^/api/users/${me.id}/avatar\\?v=`));
        // The stored picture is a square, whatever the shape of the one picked.
        const size = await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
        expect(size[0]).toBeGreaterThan(0);
        expect(size[0]).toBe(size[1]);
      };
      await shown();
      await page.reload();
      await shown();

      const saved = await profileOf(me.id, me.token);
      expect(saved).toMatchObject({ displayName: 'Pat Q. Painter', bio: 'Paints skies.\nFilms them too.', location: 'Lisbon', website: 'https://pat.example.com/work', isPrivate: false });
      expect(saved.avatar).toMatch(new RegExp(`^/api/users/${me.id}/avatar\\?v=`));
      expect(problems).toEqual([]);
    }, 90_000);

    it("follows someone from their profile, sees both profiles' counts change and stay, and opens the tabs", async () => {
      const tag = randomBytes(3).toString('hex');
      const me = await registerThroughApi(product.baseUrl, newAccount('Fay', 'Follower'));
      const them = await registerThroughApi(product.baseUrl, newAccount('Cal', 'Creator'));
      const fan = await registerThroughApi(product.baseUrl, newAccount('Ned', 'Nearby'));
      // Someone already follows them; they follow no one. One public, published timeline.
      expect((await callApi(product.baseUrl, 'POST', `/api/users/${them.id}/follow`, { token: fan.token })).status).toBe(200);
      const title = `Harbour lights ${tag}`;
      const made = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: them.token, body: { title, visibility: 'public' } });
      expect(made.status).toBe(201);
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${made.body.id}`, { token: them.token, body: { status: 'published' } })).status).toBe(200);
      await eventually('their counts to settle', async () => {
        const profile = await profileOf(them.id, me.token);
        return profile.followersCount === 1 ? true : undefined;
      });
      await eventually('the new timeline in their activity', async () => (await activityTypes(them.id, me.token)).includes('created_timeline') ? true : undefined);

      const page = await open(me.token);
      await page.goto(`/profile/${them.id}`);
      await heading(page, them.displayName).waitFor();
      await page.getByRole('list', { name: 'Timelines' }).getByRole('link', { name: new RegExp(title) }).waitFor();
      await waitForCount(page, 'Followers', '1');

      // Follow: the button and the count change at once.
      const follow = button(page, 'Follow');
      await follow.and(page.locator(':enabled')).waitFor();
      await follow.click();
      await button(page, 'Unfollow').waitFor();
      await waitForCount(page, 'Followers', '2');

      // The server agrees, and a reload keeps it.
      await eventually('the follow to reach their profile', async () => ((await profileOf(them.id, me.token)).followersCount === 2 ? true : undefined));
      await page.reload();
      await heading(page, them.displayName).waitFor();
      await button(page, 'Unfollow').waitFor();
      await waitForCount(page, 'Followers', '2');

      // Followers: both fans; Following: no one yet; Activity: the timeline they made.
      await tab(page, 'Followers').click();
      const followers = page.getByRole('list', { name: 'Followers' });
      await followers.getByRole('link', { name: me.displayName }).waitFor();
      await followers.getByRole('link', { name: fan.displayName }).waitFor();
      expect(new URL(page.url()).searchParams.get('tab')).toBe('followers');
      // The tabs follow the arrow keys too.
      await tab(page, 'Followers').focus();
      await page.keyboard.press('ArrowRight');
      await page.getByText(`${them.displayName} isn't following anyone yet.`).waitFor();
      expect(await tab(page, 'Following').getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      const activity = page.getByRole('list', { name: 'Activity' });
      await activity.getByText(`Created the timeline ${title}`).waitFor();
      await activity.getByRole('link', { name: title }).click();
      await page.waitForURL(`**/watch/${made.body.id}`);

      // One's own profile counts the follow too, after a reload as well.
      await eventually('the follow to reach my profile', async () => ((await profileOf(me.id, me.token)).followingCount === 1 ? true : undefined));
      await eventually('the follow in my activity', async () => ((await activityTypes(me.id, me.token)).includes('followed_user') ? true : undefined));
      await page.goto(`/profile/${me.id}`);
      await heading(page, me.displayName).waitFor();
      await waitForCount(page, 'Following', '1');
      await tab(page, 'Following').click();
      const following = page.getByRole('list', { name: 'Following' });
      await following.getByRole('button', { name: `Unfollow ${them.displayName}` }).waitFor();
      await tab(page, 'Activity').click();
      await page.getByRole('list', { name: 'Activity' }).getByText(`Followed @${them.username}`).waitFor();
      await page.reload();
      await page.getByRole('list', { name: 'Activity' }).getByText(`Followed @${them.username}`).waitFor();
      await waitForCount(page, 'Following', '1');

      // Unfollow from their profile: back to one follower, also for the server.
      await page.goto(`/profile/${them.id}`);
      await button(page, 'Unfollow').click();
      await button(page, 'Follow').waitFor();
      await waitForCount(page, 'Followers', '1');
      await eventually('the unfollow to reach their profile', async () => ((await profileOf(them.id, me.token)).followersCount === 1 ? true : undefined));
      expect(problems).toEqual([]);
    }, 120_000);
  });
});
