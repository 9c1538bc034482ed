import { useEffect, useState } from 'react';
import { Switch } from '../../../components/ui/switch';
import { errorMessage } from '../../../lib/api-client';
import { showInstallGuide } from '../../../lib/install-guide';
import { type Channel, type NotificationType, usePreferences } from '../api/get-preferences';
import { useUpdatePreference } from '../api/update-preference';
import { disablePush, enablePush, isPushSubscribed, pushPermission, type PushPermission, pushSupport } from '../lib/web-push';
import './notification-list.css';

const TYPES: Array<{ type: NotificationType; label: string }> = [
  { type: 'likes', label: 'Likes' },
  { type: 'comments', label: 'Comments and replies' },
  { type: 'mentions', label: 'Mentions' },
  { type: 'follows', label: 'New followers' },
  { type: 'collaboration', label: 'Invitations and collaboration' },
  { type: 'videos', label: 'Video processing' },
  { type: 'exports', label: 'Exports ready' },
];

/** This device's push: asks the browser's permission only when turned on, and shows what the browser allows. */
function DevicePush() {
  const support = pushSupport();
  const [permission, setPermission] = useState<PushPermission>(() => pushPermission());
  const [subscribed, setSubscribed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let live = true;
    void isPushSubscribed().then((value) => live && setSubscribed(value), () => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (support === 'needs-home-screen') {
    return (
      <p className="notification-settings__note" data-testid="push-needs-home-screen">
        On iPhone and iPad, notifications reach Timeliner only once it is on your Home Screen. Add it there, open Timeliner
        from the Home Screen and turn push on here.{' '}
        <button type="button" className="link-button" onClick={showInstallGuide}>
          How to Add to Home Screen
        </button>
      </p>
    );
  }
  if (support === 'unsupported') {
    return <p className="notification-settings__note">This browser cannot receive push notifications.</p>;
  }

  const change = async (on: boolean) => {
    setBusy(true);
    setProblem(undefined);
    try {
      if (on) {
        const answer = await enablePush();
        setPermission(answer);
        setSubscribed(answer === 'granted');
      } else {
        await disablePush();
        setSubscribed(false);
      }
    } catch (error) {
      setProblem(errorMessage(error, 'Push could not be changed. Please try again.'));
      setSubscribed(await isPushSubscribed().catch(() => false));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Switch
        label="Push notifications on this device"
        description={
          permission === 'denied'
            ? 'Your browser blocks notifications from Timeliner. Allow them in the site settings of your browser, then turn this on.'
            : 'Notifications arrive even when Timeliner is closed. Your browser asks for permission when you turn this on.'
        }
        checked={subscribed}
        disabled={busy || permission === 'denied'}
        onCheckedChange={(on) => void change(on)}
      />
      {problem ? (
        <p className="alert" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/** Per-type switches for the list (in the app) and push, and this device's push. */
export function NotificationSettings() {
  const preferences = usePreferences();
  const update = useUpdatePreference();
  const set = (type: NotificationType, channel: Channel, on: boolean) => update.mutate({ type, channel, on });

  return (
    <section className="card settings__form" aria-labelledby="settings-notifications">
      <h2 id="settings-notifications" className="settings__heading">
        Notifications
      </h2>
      <DevicePush />
      {update.isError ? (
        <p className="alert" role="alert">
          {errorMessage(update.error, 'Your choice could not be saved. Please try again.')}
        </p>
      ) : null}
      {preferences.data ? (
        TYPES.map(({ type, label }) => (
          <fieldset key={type} className="notification-settings__type">
            <legend className="settings__subheading">{label}</legend>
            <Switch label="In the app" accessibleName={`${label}: in the app`} checked={preferences.data[type].inApp} disabled={update.isPending} onCheckedChange={(on) => set(type, 'inApp', on)} />
            <Switch label="Push" accessibleName={`${label}: push`} checked={preferences.data[type].push} disabled={update.isPending} onCheckedChange={(on) => set(type, 'push', on)} />
          </fieldset>
        ))
      ) : preferences.isError ? (
        <p className="alert" role="alert">
          Your notification settings could not be loaded.
        </p>
      ) : null}
    </section>
  );
}
