import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { TextAreaField } from '../../../components/ui/form-fields';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import type { User } from '../../../lib/current-user';
import { useUpdateProfile, type UpdateProfileInput } from '../api/update-profile';
import { uploadAvatar } from '../api/upload-avatar';
import {
  AVATAR_TYPES,
  fieldOfMessage,
  profileLimits,
  validateAvatar,
  validateProfile,
  withWebsiteScheme,
  type ProfileErrors,
  type ProfileFormValues,
} from '../lib/profile-validation';
import './edit-profile-dialog.css';

/** The profile as it is now: what the form starts from. */
export interface EditableProfile {
  displayName: string;
  bio: string | null;
  location: string | null;
  website: string | null;
  avatar: string | null;
  isPrivate: boolean;
}

export interface EditProfileDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  profile: EditableProfile;
  onSaved?: (user: User) => void;
}

export const SAVE_FAILED_FALLBACK = 'Your profile could not be saved. Please try again.';
const UPLOAD_FAILED_FALLBACK = 'Your photo could not be uploaded. Please try again.';

/** A picked picture and the address that shows it before it is uploaded. */
interface PickedAvatar {
  file: File;
  preview: string;
  /** Set once uploaded, so a retry after a failed save does not upload it again. */
  uploaded?: string;
}

function initialValues(profile: EditableProfile): ProfileFormValues {
  return { displayName: profile.displayName, bio: profile.bio ?? '', location: profile.location ?? '', website: profile.website ?? '' };
}

/** Only what changed is sent; a cleared text is sent empty, which removes it. */
function changesOf(profile: EditableProfile, values: ProfileFormValues, isPrivate: boolean): UpdateProfileInput {
  const changes: UpdateProfileInput = {};
  const displayName = values.displayName.trim();
  if (displayName !== profile.displayName) changes.displayName = displayName;
  const texts = ['bio', 'location', 'website'] as const;
  for (const field of texts) {
    const value = values[field].trim();
    if (value !== (profile[field] ?? '')) changes[field] = value;
  }
  if (isPrivate !== profile.isPrivate) changes.isPrivate = isPrivate;
  return changes;
}

function EditProfileForm({ profile, onDone, onPendingChange }: { profile: EditableProfile; onDone: (user?: User) => void; onPendingChange: (pending: boolean) => void }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => initialValues(profile));
  const [isPrivate, setIsPrivate] = useState(profile.isPrivate);
  const [picked, setPicked] = useState<PickedAvatar | null>(null);
  const [avatarRemoved, setAvatarRemoved] = useState(false);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [formError, setFormError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  // Bumped when a submit finds errors, to move focus to the first field that has one.
  const [failedSubmits, setFailedSubmits] = useState(0);
  const update = useUpdateProfile();
  const pending = uploading || update.isPending;

  useEffect(() => onPendingChange(pending), [pending, onPendingChange]);
  const preview = picked?.preview;
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  useEffect(() => {
    if (failedSubmits > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failedSubmits]);

  const setValue = (field: keyof ProfileFormValues) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const pickAvatar = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file can be picked again after it was removed.
    event.target.value = '';
    if (!file) return;
    const problem = validateAvatar(file);
    setErrors((current) => ({ ...current, avatar: problem }));
    if (problem) return;
    setPicked({ file, preview: URL.createObjectURL(file) });
    setAvatarRemoved(false);
  };

  const removeAvatar = () => {
    setPicked(null);
    setAvatarRemoved(true);
    setErrors((current) => ({ ...current, avatar: undefined }));
  };

  const fail = (field: keyof ProfileErrors | undefined, message: string) => {
    if (field) setErrors((current) => ({ ...current, [field]: message }));
    else setFormError(message);
    setFailedSubmits((count) => count + 1);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setFormError(undefined);
    // "example.com/ben" is taken as https://example.com/ben, and shown so.
    const website = withWebsiteScheme(values.website);
    if (website !== values.website) setValues((current) => ({ ...current, website }));
    const prepared = { ...values, website };
    // A refused photo was never kept, and a failed upload may be tried again: neither holds up the rest.
    const found = validateProfile(prepared);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      setFailedSubmits((count) => count + 1);
      return;
    }

    const changes = changesOf(profile, prepared, isPrivate);
    let avatar: string | undefined;
    if (picked) {
      avatar = picked.uploaded;
      if (!avatar) {
        setUploading(true);
        try {
          avatar = (await uploadAvatar(picked.file)).avatar;
          setPicked((current) => (current === picked ? { ...picked, uploaded: avatar } : current));
        } catch (error) {
          fail('avatar', errorMessage(error, UPLOAD_FAILED_FALLBACK));
          return;
        } finally {
          setUploading(false);
        }
      }
    } else if (avatarRemoved && profile.avatar) {
      avatar = '';
    }
    if (avatar !== undefined) changes.avatar = avatar;

    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    update.mutate(changes, {
      onSuccess: (user) => {
        toast({ title: 'Profile updated', description: 'Your changes have been saved.' });
        onDone(user);
      },
      onError: (error) => {
        const message = errorMessage(error, SAVE_FAILED_FALLBACK);
        fail(fieldOfMessage(message), message);
      },
    });
  };

  const shownAvatar = preview ?? (avatarRemoved ? null : profile.avatar);
  const avatarHintId = `${id}-avatar-hint`;
  const avatarErrorId = `${id}-avatar-error`;
  let submitLabel = 'Save Changes';
  if (uploading) submitLabel = 'Uploading photo...';
  else if (update.isPending) submitLabel = 'Saving...';

  return (
    <form ref={formRef} className="profile-form" onSubmit={(event) => void submit(event)} noValidate aria-label="Edit Profile">
      {formError ? (
        <p className="alert" role="alert">
          {formError}
        </p>
      ) : null}

      <div className="profile-form__avatar">
        <Avatar name={values.displayName || profile.displayName} src={shownAvatar} size="lg" />
        <div className="profile-form__avatar-controls">
          <span className="field__label" id={`${id}-avatar-label`}>
            Profile photo
          </span>
          <div className="profile-form__avatar-buttons">
            <label className="button button--secondary button--sm profile-form__pick">
              {shownAvatar ? 'Change photo' : 'Choose photo'}
              <input
                type="file"
                className="visually-hidden"
                accept={AVATAR_TYPES.join(',')}
                disabled={pending}
                aria-describedby={[avatarHintId, errors.avatar ? avatarErrorId : null].filter(Boolean).join(' ')}
                aria-invalid={errors.avatar ? true : undefined}
                onChange={pickAvatar}
              />
            </label>
            {shownAvatar ? (
              <button type="button" className="button button--ghost button--sm" onClick={removeAvatar} disabled={pending}>
                Remove photo
              </button>
            ) : null}
          </div>
          <p className="field__hint" id={avatarHintId}>
            {picked ? `${picked.file.name}: shown here as a preview until you save.` : 'JPEG, PNG, WebP or GIF, up to 10 MB.'}
          </p>
          {errors.avatar ? (
            <p className="field__error" id={avatarErrorId}>
              {errors.avatar}
            </p>
          ) : null}
        </div>
      </div>

      <Field
        label="Display name"
        autoComplete="name"
        maxLength={profileLimits.displayNameMax}
        value={values.displayName}
        error={errors.displayName}
        onChange={setValue('displayName')}
      />
      <TextAreaField
        label="Bio"
        rows={4}
        maxLength={profileLimits.bioMax}
        placeholder="Tell people what you make"
        value={values.bio}
        error={errors.bio}
        hint={`${values.bio.length} / ${profileLimits.bioMax} characters`}
        onChange={setValue('bio')}
      />
      <Field
        label="Location"
        autoComplete="address-level2"
        maxLength={profileLimits.locationMax}
        placeholder="City, country"
        value={values.location}
        error={errors.location}
        onChange={setValue('location')}
      />
      <Field
        label="Website"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com"
        maxLength={profileLimits.websiteMax}
        value={values.website}
        error={errors.website}
        onChange={setValue('website')}
        onBlur={() => setValues((current) => ({ ...current, website: withWebsiteScheme(current.website) }))}
      />
      <Switch
        label="Private account"
        description={
          isPrivate
            ? 'Only you and your followers see your activity, followers and following.'
            : 'Anyone can see your activity, followers and following.'
        }
        checked={isPrivate}
        disabled={pending}
        onCheckedChange={setIsPrivate}
      />

      <div className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={() => onDone()} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={pending}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * Edit Profile (spec 001, "Profile"): picture (uploaded, then saved with the rest), display name,
 * bio, location, website and a private account switch. Server messages show beside their field.
 * Closing while saving is held off: the answer decides what happens next.
 */
export function EditProfileDialog({ open, onOpenChange, profile, onSaved }: EditProfileDialogProps) {
  const [pending, setPending] = useState(false);
  const close = (next: boolean) => {
    if (!next && pending) return;
    onOpenChange(next);
  };
  return (
    <ResponsiveDialog open={open} onOpenChange={close} title="Edit Profile" description="This is how others see you on your profile.">
      {open ? (
        <EditProfileForm
          profile={profile}
          onPendingChange={setPending}
          onDone={(user) => {
            setPending(false);
            onOpenChange(false);
            if (user) onSaved?.(user);
          }}
        />
      ) : null}
    </ResponsiveDialog>
  );
}
