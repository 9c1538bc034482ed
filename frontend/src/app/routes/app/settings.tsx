import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { useUser, type User } from '../../../features/auth/api/get-me';
import { useUpdateProfile, type UpdateProfileInput } from '../../../features/auth/api/update-profile';
import { NotificationSettings } from '../../../features/notifications/components/notification-settings';
import { getProfileQueryOptions } from '../../../features/users/api/get-profile';
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

export default function SettingsRoute() {
  const { data: user } = useUser();
  return (
    <div className="page settings">
      <title>Settings · Timeliner</title>
      <div>
        <h1 className="page__title">Settings</h1>
        <p className="page__subtitle">Signed in as {user?.email}</p>
      </div>
      {user ? <ProfileForm user={user} /> : null}
      {user ? <NotificationSettings /> : null}
    </div>
  );
}
