import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  type Account,
  callApi,
  newAccount,
  registerThroughApi,
  signInWithToken,
  signUpThroughScreens,
} from './support/accounts.js';
import { launchBrowser, newContext, type Viewport, viewports } from './support/browser.js';
import { inviteLinkIn, mailsTo, waitForMail } from './support/mail.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading, pathOf, toast } from './support/screens.js';

const TRANSFER_CONFIRMATION = 'Are you sure you want to transfer ownership? This action cannot be undone.';
const DELETED = 'Your timeline and all its videos have been removed.';
const TIMELINE_PATH = /^\/timeline\/([0-9a-f-]{36})$/;

/**
 * Spec 001 sections 2, 4, 5 and 8: a creator makes a timeline and runs it (settings, privacy,
 * publishing), brings in a team (an existing account at once, a new address by an e-mailed link
 * that works signed out), hands the timeline over and deletes it; and a private timeline stays
 * invisible to a stranger. Real Chromium, the real product, on a phone and on a desktop.
 *
 * The first four journeys follow one timeline, in order; the fifth stands alone.
 */
describe('timelines and collaboration journeys', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2etimelines');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(viewports)('on a $name', (viewport) => {
    const phone = viewport.name === 'phone';
    /** Every context this viewport opened: closed at the end, and their problems checked in each journey. */
    const opened: { context: BrowserContext; problems: string[]; label: string }[] = [];

    // What the journeys hand on to the next.
    let creator: Account | undefined;
    let ownerPage: Page | undefined;
    let timeline: { id: string; title: string } | undefined;
    let newcomer: Account | undefined;
    let newcomerPage: Page | undefined;

    afterAll(async () => {
      for (const { context } of opened) await context.close().catch(() => undefined);
    });

    /** A fresh, signed-out browser context (reduced motion: dialogs land where they end up at once). */
    async function open(label: string, token?: string): Promise<Page> {
      const calm: Viewport = { ...viewport, options: { ...viewport.options, reducedMotion: 'reduce' } };
      const { context, problems } = await newContext(browser, calm, product.baseUrl);
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      opened.push({ context, problems, label });
      if (token) await signInWithToken(context, token);
      return context.newPage();
    }

    /** No page error and no CSP violation in any context this viewport has used so far. */
    const noProblems = () => expect(opened.flatMap(({ label, problems }) => problems.map((p) => `${label}: ${p}`))).toEqual([]);

    function need<T>(value: T | undefined, what: string): T {
      if (value === undefined) throw new Error(`${what} is missing: an earlier journey on this ${viewport.name} failed`);
      return value;
    }

    it('creator: signs up, creates a timeline, renames it, makes it public, publishes it; the dashboard lists it', async () => {
      const tag = randomBytes(3).toString('hex');
      const ada = newAccount('Ada', 'Lovelace');
      const page = await open('creator');

      await page.goto('/studio');
      await signUpThroughScreens(page, ada);
      await page.getByRole('button', { name: `account menu for ${ada.displayName}` }).waitFor();
      await heading(page, 'Creator Studio').waitFor();
      await heading(page, 'No timelines yet').waitFor();

      // One dialog, by one name, on both sizes: a bottom sheet on the phone, a centred modal on the desktop.
      await button(page, 'Create Your First Timeline').click();
      const dialog = page.getByRole('dialog', { name: 'Create New Timeline' });
      await dialog.waitFor();
      expect(new URL(page.url()).searchParams.get('create')).toBe('true');
      const box = (await dialog.boundingBox())!;
      const screen = page.viewportSize()!;
      if (phone) {
        expect(Math.abs(box.x)).toBeLessThan(2);
        expect(Math.abs(box.width - screen.width)).toBeLessThan(2);
        expect(Math.abs(box.y + box.height - screen.height)).toBeLessThan(2);
      } else {
        expect(box.width).toBeLessThan(screen.width * 0.6);
        expect(Math.abs(box.x + box.width / 2 - screen.width / 2)).toBeLessThan(2);
        expect(Math.abs(box.y + box.height / 2 - screen.height / 2)).toBeLessThan(2);
      }

      // An empty title is refused with the spec's words; visibility starts private.
      await button(dialog, 'Create Timeline').click();
      await dialog.getByText('Timeline title is required', { exact: true }).waitFor();
      expect(await dialog.getByLabel('Timeline Title').getAttribute('aria-invalid')).toBe('true');
      expect(await dialog.getByLabel('Visibility').inputValue()).toBe('private');

      const firstTitle = `Road trip ${tag}`;
      await dialog.getByLabel('Timeline Title').fill(firstTitle);
      await dialog.getByLabel('Description').fill('Five days along the coast.');
      await button(dialog, 'Create Timeline').click();
      await toast(page, 'Timeline created successfully').waitFor();
      await toast(page, `"${firstTitle}" has been created.`).waitFor();
      await page.waitForURL((url) => TIMELINE_PATH.test(url.pathname));
      const id = TIMELINE_PATH.exec(pathOf(page))![1]!;
      await heading(page, firstTitle).waitFor();

      // The studio list has it as a card that opens it.
      await page.getByRole('link', { name: 'All Timelines', exact: true }).click();
      await heading(page, 'Creator Studio').waitFor();
      const cards = page.getByRole('list', { name: 'Your timelines' });
      await cards.getByRole('listitem').filter({ hasText: firstTitle }).getByText('Private', { exact: true }).waitFor();
      await cards.getByRole('link', { name: firstTitle, exact: true }).click();
      await page.waitForURL(`**/timeline/${id}`);
      const summary = page.getByRole('region', { name: firstTitle });
      await summary.getByText('Draft', { exact: true }).waitFor();
      await summary.getByText('Private', { exact: true }).waitFor();

      // Timeline Settings: rename (General), go public (Privacy), publish (Advanced).
      await button(page, 'Timeline Settings').click();
      const settings = page.getByRole('dialog', { name: 'Timeline Settings' });
      await settings.waitFor();
      expect(await settings.getByRole('tab', { name: 'General', exact: true }).getAttribute('aria-selected')).toBe('true');
      const title = `Coast road trip ${tag}`;
      await settings.getByLabel('Title', { exact: true }).fill(title);
      await button(settings, 'Save Changes').click();
      await toast(page, 'Timeline Updated').waitFor();
      await toast(page, 'Your changes have been saved successfully.').waitFor();

      await settings.getByRole('tab', { name: 'Privacy', exact: true }).click();
      await settings.getByRole('switch', { name: 'Private', exact: true, checked: true }).waitFor();
      await settings.getByRole('switch', { name: 'Public', exact: true }).click();
      await settings.getByRole('switch', { name: 'Public', exact: true, checked: true }).waitFor();
      await settings.getByRole('switch', { name: 'Private', exact: true, checked: false }).waitFor();
      expect(await settings.getByRole('switch', { name: 'Unlisted', exact: true }).getAttribute('aria-checked')).toBe('false');

      await settings.getByRole('tab', { name: 'Advanced', exact: true }).click();
      await settings.getByText(/This timeline is draft\./).waitFor();
      await button(settings, 'Publish Timeline').click();
      await button(settings, 'Unpublish Timeline').waitFor();
      await settings.getByText(/This timeline is published\./).waitFor();
      await button(settings, 'Close').click();
      await settings.waitFor({ state: 'detached' });

      const renamed = page.getByRole('region', { name: title });
      await heading(renamed, title).waitFor();
      await renamed.getByText('Published', { exact: true }).waitFor();
      await renamed.getByText('Public', { exact: true }).waitFor();

      // The server kept all three.
      const token = (await page.evaluate(() => localStorage.getItem('authToken')))!;
      const stored = await callApi<{ title: string; visibility: string; status: string; role: string }>(product.baseUrl, 'GET', `/api/timelines/${id}`, { token });
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ title, visibility: 'public', status: 'published', role: 'owner' });

      // The experiences dashboard lists it with its status, and its filter agrees.
      await page.goto('/dashboard');
      await heading(page, 'Experiences Dashboard').waitFor();
      // The status filter looks like a drop-down: its arrow (a background) and the room for it hold
      // over the text field's look, whichever style sheet arrived last.
      const select = await page.getByLabel('Status').evaluate((element) => {
        const style = getComputedStyle(element);
        return { arrow: style.backgroundImage, paddingRight: style.paddingRight };
      });
      expect(select.arrow).toContain('linear-gradient');
      expect(select.paddingRight).toBe('36px');
      const card = page.getByRole('article', { name: title });
      await card.getByText('Published', { exact: true }).waitFor();
      await card.getByText('Five days along the coast.', { exact: true }).waitFor();
      expect(await page.getByRole('region', { name: 'Summary' }).innerText()).toMatch(/Published\s+1\b/);
      await page.getByLabel('Status').selectOption('draft');
      await heading(page, 'No timelines found').waitFor();
      await page.getByText('Try adjusting your search or filters', { exact: true }).waitFor();
      await page.getByLabel('Status').selectOption('published');
      await card.getByRole('link', { name: `Open Timeline ${title}`, exact: true }).click();
      await page.waitForURL(`**/timeline/${id}`);
      await heading(page, title).waitFor();

      noProblems();
      creator = ada;
      ownerPage = page;
      timeline = { id, title };
    }, 60_000);

    it('collaboration: an existing account joins at once; a new address accepts the e-mailed link after signing up', async () => {
      const page = need(ownerPage, 'the owner');
      const { id, title } = need(timeline, 'the timeline');
      const owner = need(creator, 'the creator');
      const alan = await registerThroughApi(product.baseUrl, newAccount('Alan', 'Turing'));
      const grace = newAccount('Grace', 'Hopper');
      const message = `Come and edit the coast trip with me, Grace.`;

      const team = page.getByRole('region', { name: 'Team Collaboration' });
      const collaborators = team.getByRole('list', { name: 'Collaborators' });
      await collaborators.getByRole('listitem').filter({ hasText: owner.displayName }).getByText('Owner', { exact: true }).waitFor();

      // An address is required before anything is sent.
      await button(team, 'Invite Collaborator').click();
      const invite = page.getByRole('dialog', { name: 'Invite Collaborator' });
      await invite.waitFor();
      await button(invite, 'Send Invitation').click();
      await toast(page, 'Email Required').waitFor();

      // Someone with an account is on the team at once, with the invited role.
      expect(await invite.getByLabel('Role').inputValue()).toBe('editor');
      await invite.getByLabel('Email').fill(alan.email);
      await button(invite, 'Send Invitation').click();
      await toast(page, 'Collaborator Added').waitFor();
      await invite.waitFor({ state: 'detached' });
      await collaborators.getByRole('listitem').filter({ hasText: alan.displayName }).getByText('Editor', { exact: true }).waitFor();
      expect(await mailsTo(product.dataDir, alan.email)).toEqual([]);

      // A new address gets a pending invitation that runs for a week, and an e-mail.
      const before = await mailsTo(product.dataDir, grace.email);
      await button(team, 'Invite Collaborator').click();
      await invite.waitFor();
      await invite.getByLabel('Email').fill(grace.email);
      await invite.getByLabel('Message (optional)').fill(message);
      await button(invite, 'Send Invitation').click();
      await toast(page, 'Invitation Sent').waitFor();
      await invite.waitFor({ state: 'detached' });
      const pendingRow = team.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem').filter({ hasText: grace.email });
      await pendingRow.getByText('Expires in 7 days', { exact: true }).waitFor();
      await pendingRow.getByText('Editor', { exact: true }).waitFor();

      const mail = await waitForMail(product.dataDir, grace.email, { seen: before });
      expect(mail.text).toContain(title);
      expect(mail.text).toContain(message);
      const link = inviteLinkIn(mail);
      expect(link.startsWith(`${product.baseUrl}/invite/`)).toBe(true);

      // Signed out, the link shows the invitation; accepting asks for an account first.
      const guest = await open('invitee');
      await guest.goto(link);
      const card = guest.getByRole('region', { name: title });
      await heading(card, title).waitFor();
      await card.getByText(message, { exact: true }).waitFor();
      await card.getByText(owner.displayName, { exact: true }).waitFor();
      await card.getByText('Expires in 7 days', { exact: true }).waitFor();
      await guest.getByText("You'll be asked to sign in or create an account to accept.", { exact: true }).waitFor();
      await button(card, 'Accept Invitation').click();
      await signUpThroughScreens(guest, grace);

      // Signed up with the invited address, the invitation comes back; accepting opens the studio.
      await heading(guest.getByRole('region', { name: title }), title).waitFor();
      expect(guest.url()).toBe(link);
      await button(guest, 'Accept Invitation').click();
      await toast(guest, 'Invitation Accepted').waitFor();
      await guest.waitForURL(`**/timeline/${id}`);
      await heading(guest, title).waitFor();
      const guestTeam = guest.getByRole('region', { name: 'Team Collaboration' });
      await guestTeam.getByRole('list', { name: 'Collaborators' }).getByRole('listitem').filter({ hasText: grace.displayName }).getByText('Editor', { exact: true }).waitFor();
      // An editor works in the studio but without the owner's controls.
      expect(await button(guest, 'Timeline Settings').count()).toBe(0);
      expect(await button(guestTeam, 'Invite Collaborator').count()).toBe(0);
      expect(await guest.getByRole('button', { name: /^Transfer ownership to / }).count()).toBe(0);

      // The link has done its work: opened again it is refused with the spec's words.
      const again = await page.context().newPage();
      await again.goto(link);
      await heading(again, 'Invalid Invitation').waitFor();
      await again.getByText('This invitation link is invalid or has already been used.', { exact: true }).waitFor();
      await again.close();

      // The owner sees the new editor, and the invitation is no longer pending.
      await page.reload();
      await heading(page, title).waitFor();
      await collaborators.getByRole('listitem').filter({ hasText: grace.displayName }).getByText('Editor', { exact: true }).waitFor();
      await team.getByText('No pending invitations.', { exact: true }).waitFor();

      noProblems();
      newcomer = grace;
      newcomerPage = guest;
    }, 60_000);

    it('transfer ownership: after confirming, the old owner loses the settings and the new owner has them', async () => {
      const page = need(ownerPage, 'the owner');
      const guest = need(newcomerPage, 'the invitee');
      const grace = need(newcomer, 'the invitee account');
      const owner = need(creator, 'the creator');
      const { id, title } = need(timeline, 'the timeline');

      const collaborators = page.getByRole('list', { name: 'Collaborators' });
      await button(page, `Transfer ownership to ${grace.displayName}`).click();
      const confirm = page.getByRole('alertdialog', { name: 'Transfer Ownership' });
      await confirm.getByText(TRANSFER_CONFIRMATION).waitFor();
      await confirm.getByText(`${grace.displayName} will become the owner.`, { exact: true }).waitFor();
      await button(confirm, 'Transfer Ownership').click();
      await toast(page, 'Ownership Transferred').waitFor();
      await confirm.waitFor({ state: 'detached' });

      // The old owner is now an editor: no settings, no transfer or remove controls.
      await button(page, 'Timeline Settings').waitFor({ state: 'detached' });
      await collaborators.getByRole('listitem').filter({ hasText: grace.displayName }).getByText('Owner', { exact: true }).waitFor();
      await collaborators.getByRole('listitem').filter({ hasText: owner.displayName }).getByText('Editor', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^(Transfer ownership to|Remove) / }).count()).toBe(0);
      await page.reload();
      await heading(page, title).waitFor();
      expect(await button(page, 'Timeline Settings').count()).toBe(0);

      // The old owner's Creator Studio still lists it, as shared with them as an editor.
      await page.getByRole('link', { name: 'All Timelines', exact: true }).click();
      const shared = page.getByRole('list', { name: 'Your timelines' }).getByRole('listitem').filter({ hasText: title });
      await shared.getByText('Shared with you · Editor', { exact: true }).waitFor();
      await shared.getByRole('link', { name: title, exact: true }).click();
      await page.waitForURL(`**/timeline/${id}`);
      await heading(page, title).waitFor();

      // The new owner has the settings and the owner's controls over the old owner.
      await guest.reload();
      await heading(guest, title).waitFor();
      await button(guest, 'Timeline Settings').waitFor();
      await button(guest, `Transfer ownership to ${owner.displayName}`).waitFor();
      await button(guest, `Remove ${owner.displayName}`).waitFor();

      noProblems();
    }, 60_000);

    it('delete: the new owner deletes the timeline from Advanced; it is gone for everyone', async () => {
      const guest = need(newcomerPage, 'the new owner');
      const page = need(ownerPage, 'the old owner');
      const { id, title } = need(timeline, 'the timeline');

      await button(guest, 'Timeline Settings').click();
      const settings = guest.getByRole('dialog', { name: 'Timeline Settings' });
      await settings.getByRole('tab', { name: 'Advanced', exact: true }).click();
      await button(settings, 'Delete Timeline').click();
      const confirm = guest.getByRole('alertdialog', { name: 'Delete this timeline?' });
      await confirm.getByText(`"${title}" and all its videos will be permanently deleted. This action cannot be undone.`, { exact: true }).waitFor();
      await button(confirm, 'Delete').click();
      await toast(guest, DELETED).waitFor();
      await guest.waitForURL('**/studio');
      await heading(guest, 'Creator Studio').waitFor();
      await heading(guest, 'No timelines yet').waitFor();

      await guest.goto(`/timeline/${id}`);
      await heading(guest, 'Timeline not found').waitFor();
      await page.reload();
      await heading(page, 'Timeline not found').waitFor();
      expect(await page.getByText(title).count()).toBe(0);

      const token = (await guest.evaluate(() => localStorage.getItem('authToken')))!;
      expect((await callApi(product.baseUrl, 'GET', `/api/timelines/${id}`, { token })).status).toBe(404);

      noProblems();
    }, 60_000);

    it('privacy: a stranger cannot open a private timeline in the studio, the player or the API', async () => {
      const tag = randomBytes(3).toString('hex');
      const hedy = await registerThroughApi(product.baseUrl, newAccount('Hedy', 'Lamarr'));
      const eve = await registerThroughApi(product.baseUrl, newAccount('Eve', 'Stranger'));
      const secret = { title: `Secret plans ${tag}`, description: `Frequency hopping notes ${tag}` };

      // Private and even published: still the owner's (and the team's) only.
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', {
        token: hedy.token,
        body: { ...secret, visibility: 'private' },
      });
      expect(created.status).toBe(201);
      const { id } = created.body;
      const published = await callApi(product.baseUrl, 'PATCH', `/api/timelines/${id}`, { token: hedy.token, body: { status: 'published' } });
      expect(published.status).toBe(200);
      expect((await callApi(product.baseUrl, 'GET', `/api/timelines/${id}`, { token: hedy.token })).status).toBe(200);

      // Through the gateway, to the stranger, it does not exist.
      const asStranger = await callApi<{ message?: string }>(product.baseUrl, 'GET', `/api/timelines/${id}`, { token: eve.token });
      expect(asStranger.status).toBe(404);
      expect((await callApi(product.baseUrl, 'GET', `/api/timelines/${id}`)).status).toBe(404);
      expect(JSON.stringify(asStranger.body)).not.toContain(secret.title);
      const listed = await callApi<Array<{ id: string }>>(product.baseUrl, 'GET', '/api/timelines', { token: eve.token });
      expect(listed.status).toBe(200);
      expect(listed.body.map((t) => t.id)).not.toContain(id);
      expect((await callApi(product.baseUrl, 'GET', `/api/timelines/${id}/collaborators`, { token: eve.token })).status).toBe(404);

      const page = await open('stranger', eve.token);
      await page.goto(`/timeline/${id}`);
      await page.getByRole('button', { name: `account menu for ${eve.displayName}` }).waitFor();
      await heading(page, 'Timeline not found').waitFor();
      expect(pathOf(page)).toBe(`/timeline/${id}`);
      expect(await page.getByText(secret.title).count()).toBe(0);
      expect(await page.getByText(secret.description).count()).toBe(0);

      await page.goto(`/watch/${id}`);
      await button(page, 'Back').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByText(secret.title).count()).toBe(0);
      expect(await page.getByText(secret.description).count()).toBe(0);

      noProblems();
    }, 60_000);
  });
});
