import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DISMISSED_KEY } from '../lib/install-decision';
import { INSTALL_OFFER_GRACE_MS } from '../hooks/use-install-prompt';
import { InstallPrompt } from './install-prompt';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36';

function setDevice(userAgent: string, width: number) {
  jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

beforeEach(() => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
});

afterEach(() => {
  jest.useRealTimers();
});

/** The person starts using the page (a tap, a key, a scroll). */
const engage = () =>
  act(() => {
    window.dispatchEvent(new Event('pointerdown'));
  });

describe('install prompt', () => {
  it('renders nothing on the desktop', () => {
    const { container } = render(<InstallPrompt />);
    expect(container).toBeEmptyDOMElement();
  });

  it("guides iOS users in three steps and 'Got it!' dismisses for 7 days", async () => {
    setDevice(IPHONE, 390);
    const user = userEvent.setup();
    render(<InstallPrompt />);
    engage();
    const steps = screen.getAllByRole('listitem').map((item) => item.textContent?.trim());
    expect(steps).toEqual(['Tap the Share button', "Find 'Add to Home Screen'", "Tap 'Add' to finish"]);
    await user.click(screen.getByRole('button', { name: 'Got it!' }));
    expect(screen.queryByRole('heading', { name: 'Install Timeliner' })).not.toBeInTheDocument();
    expect(Number(localStorage.getItem(DISMISSED_KEY))).toBeGreaterThan(Date.now() - 5000);
  });

  it("offers 'Install Now' / 'Later' when an Android browser offers installation", async () => {
    setDevice(ANDROID, 412);
    const user = userEvent.setup();
    render(<InstallPrompt />);
    const prompt = jest.fn(async () => undefined);
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    act(() => {
      window.dispatchEvent(offer);
    });
    expect(offer.defaultPrevented).toBe(true);
    engage();
    await user.click(screen.getByRole('button', { name: 'Install Now' }));
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Later' })).not.toBeInTheDocument();
  });

  it("shows the browser-menu hint on other mobile devices once no install offer came", () => {
    jest.useFakeTimers();
    setDevice(ANDROID, 412);
    render(<InstallPrompt />);
    expect(screen.queryByText(/Add to Home Screen/)).not.toBeInTheDocument();
    engage();
    expect(screen.queryByText(/Add to Home Screen/)).not.toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(INSTALL_OFFER_GRACE_MS);
    });
    expect(screen.getByText(/look for 'Add to Home Screen' in your browser menu/)).toBeInTheDocument();
  });

  it('waits for the person to start using the page before offering anything', () => {
    jest.useFakeTimers();
    setDevice(IPHONE, 390);
    render(<InstallPrompt />);
    act(() => {
      jest.advanceTimersByTime(60_000);
    });
    expect(screen.queryByRole('button', { name: 'Got it!' })).not.toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    });
    expect(screen.getByRole('button', { name: 'Got it!' })).toBeInTheDocument();
  });

  it('stays hidden within 7 days of a dismissal', () => {
    setDevice(IPHONE, 390);
    localStorage.setItem(DISMISSED_KEY, String(Date.now() - 6 * 24 * 3600 * 1000));
    const { container } = render(<InstallPrompt />);
    expect(container).toBeEmptyDOMElement();
  });
});
