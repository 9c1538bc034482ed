import type { Locator, Page } from 'playwright-core';

/** A heading by its exact accessible name. */
export const heading = (page: Page | Locator, name: string): Locator => page.getByRole('heading', { name, exact: true });

/** A button by its exact accessible name. */
export const button = (page: Page | Locator, name: string): Locator => page.getByRole('button', { name, exact: true });

/**
 * Text in the toast area (the 'Notifications' region): a toast's title or description. The
 * screen-reader announcement Radix makes of the same toast lies outside that region, so one match.
 * While a modal dialog is open the app behind it (toast area included) is aria-hidden, the toast
 * being announced through that separate live region; so the region is found even then, and
 * `waitFor` still requires the text to be visible on screen.
 */
export const toast = (page: Page, text: string): Locator =>
  page.getByRole('region', { name: /^Notifications/, includeHidden: true }).getByText(text, { exact: true });

/** The path of the page's address, without origin, query or hash. */
export const pathOf = (page: Page): string => new URL(page.url()).pathname;
