/** Asks the install prompt to show its guide (see `showInstallGuide`). */
export const SHOW_INSTALL_GUIDE_EVENT = 'timeliner:show-install-guide';

/**
 * Opens the install prompt's guide now, even if it was dismissed. The push settings link to it;
 * the install prompt, wherever the page has one, listens.
 */
export function showInstallGuide(): void {
  window.dispatchEvent(new Event(SHOW_INSTALL_GUIDE_EVENT));
}
