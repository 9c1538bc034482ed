/** What the profile editor checks before sending, in the server's own words. */
export const profileLimits = {
  displayNameMin: 2,
  displayNameMax: 80,
  bioMax: 500,
  locationMax: 100,
  websiteMax: 2048,
  /** Bytes. */
  avatarMax: 10 * 1024 * 1024,
} as const;

export const profileMessages = {
  displayName: 'Full name must be at least 2 characters',
  displayNameMax: `Full name must be at most ${profileLimits.displayNameMax} characters`,
  bio: `Bio must be at most ${profileLimits.bioMax} characters`,
  location: `Location must be at most ${profileLimits.locationMax} characters`,
  website: 'Website must be a link starting with http:// or https://',
  avatarType: 'Please choose an image file (JPEG, PNG, WebP or GIF)',
  avatarSize: 'Images can be at most 10 MB',
} as const;

export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

export interface ProfileFormValues {
  displayName: string;
  bio: string;
  location: string;
  website: string;
}

export type ProfileField = keyof ProfileFormValues | 'avatar';
export type ProfileErrors = Partial<Record<ProfileField, string>>;

/** A website is an http(s) link with a host; anything else (javascript:, ftp:, a bare word) is not. */
export function isWebsite(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * A website typed without its scheme ("example.com/ben") gets https://, as a browser's address bar
 * would; anything with a scheme of its own (ftp:, javascript:) is left for validation to refuse.
 */
export function withWebsiteScheme(value: string): string {
  const website = value.trim();
  if (!website || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(website)) return website;
  return /^[^\s/?#.]+(\.[^\s/?#.]+)+(:\d+)?([/?#]\S*)?$/.test(website) ? `https://${website}` : website;
}

export function validateProfile(values: ProfileFormValues): ProfileErrors {
  const errors: ProfileErrors = {};
  const displayName = values.displayName.trim();
  if (displayName.length < profileLimits.displayNameMin) errors.displayName = profileMessages.displayName;
  else if (displayName.length > profileLimits.displayNameMax) errors.displayName = profileMessages.displayNameMax;
  if (values.bio.trim().length > profileLimits.bioMax) errors.bio = profileMessages.bio;
  if (values.location.trim().length > profileLimits.locationMax) errors.location = profileMessages.location;
  const website = values.website.trim();
  if (website && (website.length > profileLimits.websiteMax || !isWebsite(website))) errors.website = profileMessages.website;
  return errors;
}

/** Why a picked file cannot be a profile picture, or undefined when it can. */
export function validateAvatar(file: File): string | undefined {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return profileMessages.avatarType;
  if (file.size > profileLimits.avatarMax) return profileMessages.avatarSize;
  return undefined;
}

/**
 * The field a server message is about, so it is shown beside that field: the server names the
 * field first ('Website must be…', 'Bio must be…'). Anything else belongs to the whole form.
 */
export function fieldOfMessage(message: string): ProfileField | undefined {
  const text = message.toLowerCase();
  if (text.startsWith('full name') || text.startsWith('display name') || text.startsWith('displayname')) return 'displayName';
  if (text.startsWith('bio')) return 'bio';
  if (text.startsWith('location')) return 'location';
  if (text.startsWith('website')) return 'website';
  if (text.startsWith('avatar') || text.includes('image')) return 'avatar';
  return undefined;
}
