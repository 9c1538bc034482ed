import * as Tabs from '@radix-ui/react-tabs';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Field } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { useUser, type User } from '../../../lib/current-user';
import { useUpdateProfile, type UpdateProfileInput } from '../../../features/auth/api/update-profile';
import { SecuritySettings } from '../../../features/auth/components/security-settings';
import { DeleteAccount } from '../../../features/auth/components/delete-account';
import { SafetySettings } from '../../../features/safety/components/safety-settings';
import { AccountSettings } from '../../../features/account/components/account-settings';
import { CaptionSettings } from '../../../features/media/components/caption-settings';
import { StorageUsage } from '../../../features/media/components/storage-usage';
import { NotificationSettings } from '../../../features/notifications/components/notification-settings';
import { getProfileQueryOptions } from '../../../features/users/api/get-profile';
import { SensitiveMediaSetting } from '../../../features/viewing/components/sensitive-media-setting';
import { errorMessage } from '../../../lib/api-client';

function ProfileForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [bio, setBio] = useState(user.bio ?? '');
  const [nameError, setNameError] = useState<string>();

  const update = useUpdateProfile({
    onSuccess: (updated) => {
      // The public profile shows the same name, bio and picture.
      void queryClient.invalidateQueries({ queryKey: getProfileQueryOptions(updated.id).queryKey });
      toast({ title: 'Profile updated', description: 'Your changes have been saved.' });
    },
  });

  // Only what was edited is sent.
  const changes: UpdateProfileInput = {};
  if (displayName.trim() !== user.displayName) changes.displayName = displayName.trim();
  if (bio.trim() !== (user.bio ?? '')) changes.bio = bio.trim();
  const changed = Object.keys(changes).length > 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!displayName.trim()) {
      setNameError('Please enter your name');
      return;
    }
    setNameError(undefined);
    if (changed) update.mutate(changes);
  };

  return (
    <form className="card settings__form" onSubmit={onSubmit} noValidate aria-labelledby="settings-profile">
      <h2 id="settings-profile" className="settings__heading">
        Profile
      </h2>
      {update.isError ? (
        <p className="alert" role="alert">
          {errorMessage(update.error, 'Your profile could not be saved. Please try again.')}
        </p>
      ) : null}
      <Field
        label="Display name"
        autoComplete="name"
        value={displayName}
        error={nameError}
        onChange={(event) => setDisplayName(event.target.value)}
      />
      <div className="field">
        <label className="field__label" htmlFor="settings-bio">
          Bio
        </label>
        <textarea
          id="settings-bio"
          className="field__input settings__bio"
          rows={4}
          value={bio}
          onChange={(event) => setBio(event.target.value)}
        />
      </div>
      <div>
        <button type="submit" className="button button--primary" disabled={update.isPending || !changed}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

const TABS = ['profile', 'security', 'safety', 'account'] as const;
type Tab = (typeof TABS)[number];

export default function SettingsRoute() {
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  // The open tab is in the address (?tab=security), so a link or a reload opens it.
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === params.get('tab')) ?? 'profile';
  const openTab = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'profile') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  return (
    <div className="page settings">
      <title>Settings · Timeliner</title>
      <div>
        <h1 className="page__title">Settings</h1>
        <p className="page__subtitle">Signed in as {user?.email}</p>
      </div>
      <Tabs.Root className="settings-tabs" value={tab} onValueChange={openTab}>
        <Tabs.List className="settings-tabs__list" aria-label="Settings sections">
          <Tabs.Trigger className="settings-tabs__trigger" value="profile">
            Profile
          </Tabs.Trigger>
          <Tabs.Trigger className="settings-tabs__trigger" value="security">
            Security
          </Tabs.Trigger>
          <Tabs.Trigger className="settings-tabs__trigger" value="safety">
            Blocks and mutes
          </Tabs.Trigger>
          <Tabs.Trigger className="settings-tabs__trigger" value="account">
            Account
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="settings-tabs__panel" value="profile">
          {user ? <ProfileForm user={user} /> : null}
          {user ? <StorageUsage /> : null}
          {user ? <NotificationSettings /> : null}
          {user ? <CaptionSettings /> : null}
        </Tabs.Content>
        <Tabs.Content className="settings-tabs__panel" value="security">
          {user ? <SecuritySettings user={user} /> : null}
        </Tabs.Content>
        <Tabs.Content className="settings-tabs__panel" value="safety">
          {user ? <SafetySettings onChanged={() => void queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] !== 'safety' })} /> : null}
          {user ? <SensitiveMediaSetting /> : null}
        </Tabs.Content>
        <Tabs.Content className="settings-tabs__panel" value="account">
          {user ? <AccountSettings deleteAccount={<DeleteAccount />} /> : null}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
