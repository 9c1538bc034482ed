import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { devices, type Browser, type Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, type Viewport } from './support/browser.js';
import { inviteLinkIn, waitForMail } from './support/mail.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading, toast } from './support/screens.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';

/** The devices: a 390x844 touch phone and a 1366x800 desktop. */
const phone: Viewport = { name: 'phone', options: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 } } };
const desktop: Viewport = { name: 'desktop', options: { viewport: { width: 1366, height: 800 } } };
const sized = (width: number, height = 900): Viewport => ({ name: `${width} px`, options: { viewport: { width, height } } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a new person met on a phone, a tablet and a desktop: home's columns at every width, the
 * desktop player's keys, mouse and controls, and a round of smaller things (the install card over
 * the player, the floating +, Trending, the settings dialog, sign-up, switch names, logging out,
 * the invitation link's origin).
 */
describe('layout and player, as a new person meets them', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;
  const title = 'Harbour at first light';
  const unlistedTitle = 'Unlisted rehearsal';
  const emptyTitle = 'Nothing in here yet';

  beforeAll(async () => {
    // Listening on every interface: the address the product prints (localhost) is not the one
    // the browser uses (127.0.0.1), as when someone opens it by IP.
    product = await startProduct('e2elayout', { HOST: '0.0.0.0' });
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Berenice', 'Abbott'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Aaron', 'Siskind'));
    timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, title, makeClip('harbour.mp4', 14));
    // A second, short video: the arrows and the keys move between the two.
    const form = new FormData();
    form.append('video', new Blob([readFileSync(makeClip('pier.mp4', 3))], { type: 'video/mp4' }), 'pier.mp4');
    const upload = await fetch(`${product.baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${creator.token}` }, body: form });
    expect(upload.status).toBe(201);
    await eventually('both videos processed', async () => {
      const videos = await callApi<Array<{ status: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token });
      return videos.body.length === 2 && videos.body.every((video) => video.status === 'completed') ? true : undefined;
    }, 90_000);
    for (const [name, visibility] of [[unlistedTitle, 'unlisted'], [emptyTitle, 'public']] as const) {
      const made = await callApi(product.baseUrl, 'POST', '/api/timelines', { token: creator.token, body: { title: name, visibility } });
      expect(made.status).toBe(201);
    }
    // Enough in the feed to lay out: a few posts of some length.
    for (let n = 1; n <= 4; n++) {
      const post = await callApi(product.baseUrl, 'POST', '/api/posts', {
        token: creator.token,
        body: { content: `Morning ${n}: the tide went out early and the boats lay over on the sand, waiting for the water to come back.` },
      });
      expect(post.status).toBe(201);
    }
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  async function open(viewport: Viewport, token: string | null, options: { installPrompt?: boolean } = {}) {
    const { context, problems } = await newContext(browser, viewport, product.baseUrl);
    if (token) await signInWithToken(context, token);
    if (!options.installPrompt) await dismissInstallPrompt(context);
    const page = await context.newPage();
    return { context, problems, page };
  }

  const feed = (page: Page, tab = 'For you') => page.getByRole('feed', { name: tab });
  const loadedFeed = (page: Page, tab = 'For you') => feed(page, tab).and(page.locator('[aria-busy="false"]')).waitFor();

  describe('home at every width', () => {
    it.each([390, 768, 820, 900, 1024, 1366])('gives the composer and the cards room at %i px', async (width) => {
      const { context, problems, page } = await open(width === 390 ? phone : sized(width), viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      await heading(page, 'Trending').waitFor();
      const layout = await page.evaluate(() => {
        const box = (element: Element | null) => element?.getBoundingClientRect();
        const composer = box(document.querySelector('form[aria-label="Share a post"]'));
        const cards = [...document.querySelectorAll('[role="feed"] article')].map((card) => card.getBoundingClientRect());
        const left = box(document.querySelector('.home-column--left'));
        const centre = box(document.querySelector('.home-centre'));
        const right = box(document.querySelector('.home-column--right'));
        // The longest run of single-word lines in a card's text: a word per line is a crushed column.
        const texts = [...document.querySelectorAll('[role="feed"] article p')].map((p) => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight || '24'));
        return {
          composer: Math.round(composer?.width ?? 0),
          narrowestCard: Math.round(Math.min(...cards.map((card) => card.width))),
          cardCount: cards.length,
          tallestText: Math.max(...texts.map((lines) => Math.round(lines))),
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          sideBySide: Boolean(left && centre && right && left.right <= centre.left && centre.right <= right.left && left.top < centre.bottom && right.top < centre.bottom),
        };
      });
      expect(layout.cardCount).toBeGreaterThan(0);
      // A phone's column (326 px for the composer and a card at 390 px) is about the least any
      // screen should give them; no page scrolls sideways, and no line holds a single word.
      const cramped = [
        layout.composer < 320 ? `composer ${layout.composer} px` : null,
        layout.narrowestCard < 320 ? `card ${layout.narrowestCard} px` : null,
        layout.overflow > 0 ? `${layout.overflow} px sideways` : null,
        layout.tallestText > 6 ? `a paragraph of ${layout.tallestText} lines` : null,
      ].filter(Boolean);
      expect({ width, cramped }).toEqual({ width, cramped: [] });
      // A wide desktop keeps the three columns.
      if (width >= 1366) expect(layout.sideBySide).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('keeps the floating + off the cards’ lines while the feed is read on a phone, and the avatars not underlined', async () => {
      const { context, problems, page } = await open(phone, viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      const fab = page.getByRole('button', { name: 'Add videos to a timeline' });
      await fab.waitFor();
      const avatarDecoration = await page.evaluate(() => {
        const link = document.querySelector('[role="feed"] article header a');
        return link ? getComputedStyle(link).textDecorationLine : 'missing';
      });
      // Whether the + is what a finger at its place would touch.
      const fabOnTop = () =>
        page.evaluate(() => {
          const fab = document.querySelector('.fab')!;
          const box = fab.getBoundingClientRect();
          return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('.fab') === fab;
        });
      const atFirst = await fabOnTop();
      // Reading down the feed: the + steps aside, off the cards' lines; a scroll back up brings it.
      for (let step = 0; step < 6; step++) {
        await page.evaluate(() => window.scrollBy(0, 150));
        await sleep(80);
      }
      await sleep(400);
      const whileReading = await fabOnTop();
      await page.evaluate(() => window.scrollBy(0, -120));
      await sleep(400);
      const afterScrollingUp = await fabOnTop();
      expect({ avatarDecoration, atFirst, whileReading, afterScrollingUp }).toEqual({ avatarDecoration: 'none', atFirst: true, whileReading: false, afterScrollingUp: true });
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('lists only public timelines with videos in Trending, and explains an empty Following tab', async () => {
      const { context, problems, page } = await open(desktop, creator.token);
      await page.goto('/');
      const trending = page.getByRole('list', { name: 'Trending timelines' });
      await trending.getByRole('link', { name: new RegExp(title) }).waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
        const listed = await callApi(product.baseUrl, 'GET', '/api/timelines', { token: creator.token });
        throw new Error(`${String(error)}\nTrending: ${await trending.innerText().catch(() => '-')}\n/api/timelines: ${JSON.stringify(listed.body)}`);
      });
      const inTrending = { unlisted: await trending.getByRole('link', { name: new RegExp(unlistedTitle) }).count(), empty: await trending.getByRole('link', { name: new RegExp(emptyTitle) }).count() };
      expect(problems).toEqual([]);
      await context.close();

      // Someone who follows nobody yet.
      const newcomer = await open(desktop, viewer.token);
      await newcomer.page.goto('/');
      await newcomer.page.getByRole('tab', { name: 'Following' }).click();
      const panel = newcomer.page.getByRole('tabpanel', { name: 'Following' });
      await panel.getByText(/follow people|your first timeline/i).waitFor();
      const emptyText = await panel.innerText();
      expect({ inTrending, followingSpeaksOfFollowing: /follow people/i.test(emptyText) && !/your first timeline|share a post/i.test(emptyText), emptyText }).toMatchObject({
        inTrending: { unlisted: 0, empty: 0 },
        followingSpeaksOfFollowing: true,
      });
      expect(newcomer.problems).toEqual([]);
      await newcomer.context.close();
    }, 60_000);
  });

  describe('the desktop player', () => {
    const watch = async (page: Page) => {
      await page.goto(`/watch/${timelineId}`);
      await page.waitForFunction(() => {
        const video = document.querySelector('video');
        return !!video && !video.paused && video.currentTime >= 0.5;
      }, undefined, { timeout: 30_000 });
    };
    const paused = (page: Page) => page.evaluate(() => document.querySelector('video')!.paused);
    const controlsShown = (page: Page) => page.evaluate(() => getComputedStyle(document.querySelector('.player__controls')!).opacity === '1');
    const clickVideo = (page: Page) => page.mouse.click(683, 400);

    it('takes Space and the arrow keys after a click on the video', async () => {
      const { context, problems, page } = await open(desktop, viewer.token);
      await watch(page);
      // A click on the picture pauses it, as on a phone's second tap; the keys then still work.
      await clickVideo(page);
      await eventually('paused by the click', async () => ((await paused(page)) ? true : undefined), 5_000, 100);
      await page.keyboard.press('Space');
      await eventually('playing again by Space', async () => ((await paused(page)) ? undefined : true), 5_000, 100);
      await page.keyboard.press('ArrowRight');
      await page.getByText('2 of 2', { exact: true }).waitFor({ timeout: 5_000 });
      await sleep(100);
      await page.keyboard.press('ArrowLeft');
      await page.getByText('1 of 2', { exact: true }).waitFor({ timeout: 5_000 });
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('goes full screen, keeps the time label with the seek bar, and shows side arrows that stand out', async () => {
      const { context, problems, page } = await open(desktop, viewer.token);
      await watch(page);
      await page.mouse.move(600, 300);
      const found: Record<string, unknown> = {};
      if ((await button(page, 'Full screen').count()) === 0) found.fullScreen = 'no Full screen button';
      else {
        await button(page, 'Full screen').click();
        await eventually('full screen', async () => ((await page.evaluate(() => document.fullscreenElement?.getAttribute('aria-label') ?? null)) ?? undefined), 5_000, 100);
        found.fullScreen = await page.evaluate(() => document.fullscreenElement?.getAttribute('role'));
        await button(page, 'Exit full screen').click();
        await eventually('out of full screen', async () => ((await page.evaluate(() => document.fullscreenElement === null)) ? true : undefined), 5_000, 100);
      }

      // Dragging the seek bar moves the label with it, before the video has caught up.
      await page.keyboard.press('k');
      const label = await page.evaluate(async () => {
        const seek = document.querySelector<HTMLInputElement>('input[aria-label="Seek"]')!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(seek, '9');
        seek.dispatchEvent(new Event('input', { bubbles: true }));
        await Promise.resolve();
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { text: document.querySelector('.player__time')!.textContent, seek: seek.value };
      });
      found.timeLabel = label.text;

      // The side arrows: white on their own backing, readable even over a white picture (4.5:1).
      const arrows = await page.evaluate(() =>
        [...document.querySelectorAll('.player__arrow')].map((arrow) => {
          const style = getComputedStyle(arrow);
          const alpha = Number(/rgba?\([^)]*?,\s*([\d.]+)\)$/.exec(style.backgroundColor)?.[1] ?? (style.backgroundColor.startsWith('rgb(') ? 1 : 0));
          return { name: arrow.getAttribute('aria-label'), alpha };
        }),
      );
      const contrastOverWhite = (alpha: number) => {
        const grey = (1 - alpha) * 255;
        const channel = grey / 255 <= 0.03928 ? grey / 255 / 12.92 : ((grey / 255 + 0.055) / 1.055) ** 2.4;
        return 1.05 / (channel + 0.05);
      };
      found.faintArrows = arrows.filter((arrow) => contrastOverWhite(arrow.alpha) < 4.5);
      expect(found).toEqual({ fullScreen: 'region', timeLabel: expect.stringMatching(/^0:09 \//), faintArrows: [] });
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('keeps the controls while paused, hides them while playing, and brings them back on a mouse move', async () => {
      const { context, problems, page } = await open(desktop, viewer.token);
      await watch(page);
      await page.keyboard.press('k');
      expect(await paused(page)).toBe(true);
      await sleep(9_000);
      expect(await controlsShown(page)).toBe(true);

      await page.keyboard.press('k');
      expect(await paused(page)).toBe(false);
      await eventually('the controls hidden while playing', async () => ((await controlsShown(page)) ? undefined : true), 12_000, 250);
      await page.mouse.move(500, 500);
      await page.mouse.move(520, 510);
      await eventually('the controls back after a mouse move', async () => ((await controlsShown(page)) ? true : undefined), 3_000, 100);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);
  });

  describe('smaller things', () => {
    it('keeps the install card off the player’s controls on a phone', async () => {
      const { context, problems, page } = await open(phone, viewer.token, { installPrompt: true });
      await page.goto(`/watch/${timelineId}`);
      await page.locator('video').waitFor();
      // Using the page is what lets the card appear.
      await page.touchscreen.tap(195, 300);
      await sleep(4_000);
      const overlap = await page.evaluate(() => {
        const card = document.querySelector('.install-prompt');
        if (!card) return [];
        const a = card.getBoundingClientRect();
        return [...document.querySelectorAll('.player__controls button, .player__controls input')]
          .filter((control) => {
            const b = control.getBoundingClientRect();
            return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          })
          .map((control) => control.getAttribute('aria-label'));
      });
      expect(overlap).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('keeps the player still on a phone while its later parts arrive (layout shift ≤ 0.05)', async () => {
      const { context, problems, page } = await open(phone, viewer.token);
      // Every shift from the start of the page, as Lighthouse counts them (none right after an input).
      await context.addInitScript(() => {
        const shifts: Array<{ value: number; sources: string[] }> = [];
        (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean; sources: Array<{ node: Node | null }> }>) {
            if (entry.hadRecentInput) continue;
            const sources = entry.sources.map(({ node }) => {
              const element = node instanceof Element ? node : node?.parentElement;
              if (!element) return 'a removed node';
              return `${element.closest('.player__controls, .player__social') ? 'controls: ' : ''}${element.tagName} ${element.className}`;
            });
            shifts.push({ value: entry.value, sources });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // A phone's slower processor (Lighthouse's 4x): the lazy parts then come well after the first paint.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`/watch/${timelineId}`);
      // The parts asked for after the first paint: the chapters' scrubber and picture in picture.
      await page.getByRole('slider', { name: 'Timeline position' }).waitFor({ state: 'attached', timeout: 30_000 });
      await button(page, 'Picture in picture').waitFor({ state: 'attached', timeout: 10_000 });
      await page.waitForFunction(() => {
        const video = document.querySelector('video');
        return !!video && video.currentTime >= 1;
      }, undefined, { timeout: 30_000 });
      const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Array<{ value: number; sources: string[] }> }).layoutShifts);
      const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
      // Over the bar, the shifts are shown: which elements moved. The controls, whose later parts
      // have their room from the first paint, do not move at all (they did by 0.014 when the
      // chapters' row arrived, under the bar but a shift all the same).
      expect(total > 0.05 ? shifts : []).toEqual([]);
      expect(shifts.filter((shift) => shift.sources.some((source) => source.startsWith('controls: ')))).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);

    it('writes comments on a phone in a font that does not make it zoom', async () => {
      const { context, problems, page } = await open(phone, viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      const card = feed(page).getByRole('article').first();
      await card.getByRole('button', { name: /^Comments, / }).click();
      const input = card.getByPlaceholder('Write a comment...');
      await input.waitFor();
      expect(await input.evaluate((element) => parseFloat(getComputedStyle(element).fontSize))).toBeGreaterThanOrEqual(16);

      await page.goto(`/watch/${timelineId}`);
      await page.locator('video').waitFor();
      await page.touchscreen.tap(195, 300);
      await page.getByRole('button', { name: /^Comments, / }).click();
      const playerInput = page.getByRole('dialog').getByPlaceholder('Add a comment...');
      await playerInput.waitFor();
      expect(await playerInput.evaluate((element) => parseFloat(getComputedStyle(element).fontSize))).toBeGreaterThanOrEqual(16);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('shows the settings dialog’s toast above it, at one height on every tab', async () => {
      const { context, problems, page } = await open(desktop, creator.token);
      await page.goto(`/timeline/${timelineId}`);
      await button(page, 'Timeline Settings').click();
      const settings = page.getByRole('dialog', { name: 'Timeline Settings' });
      await settings.waitFor();
      await sleep(300);
      const heights: Record<string, number> = {};
      for (const tab of ['General', 'Privacy', 'Sharing', 'Advanced', 'General']) {
        await settings.getByRole('tab', { name: tab, exact: true }).click();
        await sleep(100);
        heights[tab] = Math.round((await settings.boundingBox())!.height);
      }
      await settings.getByLabel('Description').fill('Boats, gulls and the tide.');
      await button(settings, 'Save Changes').click();
      const shown = toast(page, 'Timeline Updated');
      await shown.waitFor();
      const onTop = await shown.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return Boolean(top && (element.contains(top) || top.contains(element) || top.closest('.toast') === element.closest('.toast')));
      });
      expect({ oneHeight: new Set(Object.values(heights)).size === 1, heights, toastOnTop: onTop }).toMatchObject({ oneHeight: true, toastOnTop: true });
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('moves focus to the first field after an invalid sign-up', async () => {
      const { context, problems, page } = await open(phone, null);
      await page.goto('/');
      await heading(page, 'Welcome Back').waitFor();
      await button(page, 'Sign up').click();
      await heading(page, 'Create Account').waitFor();
      await page.getByLabel('Full Name').fill('Imogen Cunningham');
      await button(page, 'Create Account').click();
      await page.getByText(/username/i).nth(1).waitFor();
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('username');
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('gives a website without its scheme one, and names the notification switches by their group', async () => {
      const me = await registerThroughApi(product.baseUrl, newAccount('Ben', 'Shahn'));
      const { context, problems, page } = await open(phone, me.token);
      await page.goto(`/profile/${me.id}`);
      await button(page, 'Edit Profile').click();
      const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
      await dialog.getByLabel('Website').fill('example.com/ben');
      await button(dialog, 'Save Changes').click();
      await dialog.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
      const profile = await callApi<{ website: string | null }>(product.baseUrl, 'GET', `/api/users/${me.id}/profile`, { token: me.token });

      await page.goto('/notifications');
      await page.getByRole('heading', { name: 'Notifications' }).first().waitFor();
      const notificationsH1 = await page.getByRole('heading', { level: 1, name: 'Notifications' }).count();

      await page.goto('/settings');
      await page.getByRole('group', { name: 'Likes' }).getByRole('switch').first().waitFor();
      const names = await page.getByRole('switch').evaluateAll((switches) =>
        switches.map((element) => {
          const labelledBy = element.getAttribute('aria-label');
          const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
          return labelledBy ?? label ?? '';
        }),
      );
      expect({ website: profile.body.website, notificationsH1, switches: names.length, alike: names.length - new Set(names).size, likes: names.filter((name) => /^Likes/.test(name)) }).toEqual({
        website: 'https://example.com/ben',
        notificationsH1: 1,
        switches: expect.any(Number),
        alike: 0,
        likes: ['Likes: in the app', 'Likes: push'],
      });
      expect(names.length).toBeGreaterThanOrEqual(14);
      expect(problems).toEqual([]);
      await context.close();
    }, 60_000);

    it('logs out without a refused unread count or a socket warning', async () => {
      const { context, page } = await open(desktop, viewer.token);
      const seen: string[] = [];
      watchPages(context, seen, { warnings: /socket|realtime/i });
      const page2 = await context.newPage();
      await page.close();
      await page2.goto('/');
      await loadedFeed(page2);
      await page2.waitForLoadState('networkidle');
      await sleep(1_000);
      await page2.getByRole('button', { name: `account menu for ${viewer.displayName}` }).click();
      await page2.getByRole('menuitem', { name: 'Log out' }).click();
      await heading(page2, 'Welcome Back').waitFor();
      await sleep(2_000);
      expect(seen).toEqual([]);
      await context.close();
    }, 60_000);

    it('links the invitation e-mail to the address the app is used at', async () => {
      const address = `nobody-${Date.now()}@example.com`;
      const invite = await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/invite`, { token: creator.token, body: { email: address, role: 'viewer' } });
      expect(invite.status).toBe(201);
      const mail = await waitForMail(product.dataDir, address);
      expect(new URL(inviteLinkIn(mail)).origin).toBe(product.baseUrl);
    }, 60_000);
  });
});

// The upload rows' styles as a phone lays them out: a failed upload's bar must not look like a
// finished one.
describe('a failed upload’s bar', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is not drawn in the colour of a finished one', async () => {
    const src = path.resolve(import.meta.dirname, '../frontend/src');
    const css = ['index.css', 'features/media/components/media.css'].map((file) => readFileSync(path.join(src, file), 'utf8')).join('\n');
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><ul>
      <li class="upload-row upload-row--completed"><progress class="upload-row__progress" max="100" value="100"></progress></li>
      <li class="upload-row upload-row--error"><progress class="upload-row__progress" max="100" value="100"></progress></li>
      <li class="quick-upload__row"><progress max="100" value="100"></progress></li>
      <li class="quick-upload__row quick-upload__row--error"><progress max="100" value="100"></progress></li>
    </ul></body></html>`);
    const colours = await page.evaluate(() => [...document.querySelectorAll('progress')].map((bar) => getComputedStyle(bar).accentColor));
    expect(colours[1]).not.toBe(colours[0]);
    expect(colours[3]).not.toBe(colours[2]);
    await page.close();
  });
});
