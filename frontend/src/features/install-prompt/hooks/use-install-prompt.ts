import { useCallback, useEffect, useState } from 'react';
import { SHOW_INSTALL_GUIDE_EVENT } from '../../../lib/install-guide';
import {
  decideInstallPrompt,
  DISMISSED_KEY,
  readDismissedAt,
  type InstallEnvironment,
  type InstallPromptKind,
} from '../lib/install-decision';

/** Chrome's install offer; not in the DOM typings. */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** How long a browser may take to offer installation before the generic hint is shown instead. */
export const INSTALL_OFFER_GRACE_MS = 3000;

/** What counts as the person using the page: the offer waits for the first of these. */
const ENGAGEMENT_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'scroll'] as const;

function isStandalone(): boolean {
  const byMedia = typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
  return byMedia || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

function readDismissed(): number | null {
  try {
    return readDismissedAt(localStorage.getItem(DISMISSED_KEY));
  } catch {
    return null;
  }
}

/** The device as it is when the app starts; the prompt decides once per visit. */
function readEnvironment(): Omit<InstallEnvironment, 'canPromptInstall'> {
  return {
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    viewportWidth: window.innerWidth,
    standalone: isStandalone(),
    dismissedAt: readDismissed(),
    now: Date.now(),
  };
}

export function useInstallPrompt() {
  const [environment] = useState(readEnvironment);
  const [offer, setOffer] = useState<BeforeInstallPromptEvent | null>(null);
  const [graceOver, setGraceOver] = useState(false);
  // Offered once the person has started using the page, not over a screen they are still taking
  // in (where it was also the largest thing painted, and a phone's first paint waited for it).
  const [engaged, setEngaged] = useState(false);
  const [hidden, setHidden] = useState(false);
  // Asked for from elsewhere in the app: shown whatever an earlier dismissal said.
  const [asked, setAsked] = useState(false);

  useEffect(() => {
    const onOffer = (event: Event) => {
      event.preventDefault(); // Keep the offer for our own button instead of the browser's bar.
      setOffer(event as BeforeInstallPromptEvent);
    };
    const onInstalled = () => setHidden(true);
    const onAsked = () => {
      setAsked(true);
      setHidden(false);
    };
    window.addEventListener('beforeinstallprompt', onOffer);
    window.addEventListener('appinstalled', onInstalled);
    window.addEventListener(SHOW_INSTALL_GUIDE_EVENT, onAsked);
    const timer = window.setTimeout(() => setGraceOver(true), INSTALL_OFFER_GRACE_MS);
    const onEngaged = () => {
      setEngaged(true);
      for (const type of ENGAGEMENT_EVENTS) window.removeEventListener(type, onEngaged, true);
    };
    for (const type of ENGAGEMENT_EVENTS) window.addEventListener(type, onEngaged, { capture: true, passive: true });
    return () => {
      for (const type of ENGAGEMENT_EVENTS) window.removeEventListener(type, onEngaged, true);
      window.removeEventListener('beforeinstallprompt', onOffer);
      window.removeEventListener('appinstalled', onInstalled);
      window.removeEventListener(SHOW_INSTALL_GUIDE_EVENT, onAsked);
      window.clearTimeout(timer);
    };
  }, []);

  const decided = decideInstallPrompt({ ...environment, ...(asked ? { dismissedAt: null } : {}), canPromptInstall: offer !== null });
  const waiting = !asked && (!engaged || (decided === 'other' && !graceOver));
  const kind: InstallPromptKind = hidden || waiting ? 'none' : decided;

  const dismiss = useCallback(() => {
    try {
      localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    } catch {
      // Without storage the prompt simply returns on the next visit.
    }
    setHidden(true);
  }, []);

  const install = useCallback(async () => {
    if (!offer) return;
    setOffer(null); // An offer can be used once.
    try {
      await offer.prompt();
      const { outcome } = await offer.userChoice;
      if (outcome === 'dismissed') dismiss();
      else setHidden(true);
    } catch (error) {
      console.error('Install prompt failed', error);
      setHidden(true);
    }
  }, [offer, dismiss]);

  return { kind, dismiss, install };
}
