import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { InstallPrompt } from '../features/install-prompt/components/install-prompt';
import { DISMISSED_KEY } from '../features/install-prompt/lib/install-decision';
import { NotificationSettings } from '../features/notifications/components/notification-settings';
import { createTestQueryClient, jsonResponse, mockFetch, signIn } from '../testing/test-utils';

const ALL_ON = Object.fromEntries(['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'].map((t) => [t, { inApp: true, push: true }]));

/** The push settings and the install prompt, as the app shows both. */
function renderSettings() {
  signIn();
  mockFetch(() => jsonResponse(200, ALL_ON));
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <NotificationSettings />
      <InstallPrompt />
    </QueryClientProvider>,
  );
}

describe('push settings and the install guide', () => {
  it('explains that an iPhone needs the app on its Home Screen for push, and links to the install guide', async () => {
    const agent = Object.getOwnPropertyDescriptor(window.navigator, 'userAgent');
    Object.defineProperty(window.navigator, 'userAgent', { value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', configurable: true });
    // The install prompt was dismissed earlier: the link opens its guide all the same.
    localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    try {
      renderSettings();
      expect(await screen.findByTestId('push-needs-home-screen')).toHaveTextContent("Add to Home Screen");
      expect(screen.queryByRole('switch', { name: 'Push notifications on this device' })).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Install Timeliner' })).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'How to Add to Home Screen' }));
      const guide = await screen.findByRole('region', { name: 'Install Timeliner' });
      expect(within(guide).getAllByRole('listitem').map((item) => item.textContent?.trim())).toEqual(['Tap the Share button', "Find 'Add to Home Screen'", "Tap 'Add' to finish"]);
    } finally {
      localStorage.removeItem(DISMISSED_KEY);
      if (agent) Object.defineProperty(window.navigator, 'userAgent', agent);
      else delete (window.navigator as { userAgent?: string }).userAgent;
    }
  });
});
