import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { CheckBadgeIcon, LockIcon } from '../../../components/ui/icons';
import { formatCount, formatMonthYear, formatNumber } from '../../../lib/format';
import type { Profile } from '../api/get-profile';
import './profile.css';

/** Only http(s) addresses become links; anything else is shown as text. */
function safeWebsite(value: string): URL | null {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="profile-stats__item">
      <dt className="profile-stats__label">{label}</dt>
      <dd className="profile-stats__value" title={formatNumber(value)}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

export interface ProfileCounts {
  followersCount: number;
  followingCount: number;
}

/**
 * The top of a profile (spec 001, "Profile"): picture, name with the verified and private badges,
 * username, bio, location, website, when they joined, and the five counts. `counts` are the
 * freshest follow counts when they are known (they change with a follow before the profile does).
 */
export function ProfileView({ profile, counts, actions }: { profile: Profile; counts?: ProfileCounts | undefined; actions?: ReactNode }) {
  const website = profile.website ? safeWebsite(profile.website) : null;
  const joinedAt = profile.joinedAt || profile.createdAt;
  const joined = formatMonthYear(joinedAt);
  return (
    <section className="profile" aria-labelledby="profile-name">
      <header className="profile__header">
        <Avatar name={profile.displayName} src={profile.avatar} size="lg" />
        <div className="profile__identity">
          <h1 className="profile__name" id="profile-name">
            <span>{profile.displayName}</span>
            {profile.isVerified ? (
              <span className="profile__badge profile__badge--verified" title="Verified account">
                <CheckBadgeIcon width={18} height={18} />
                <span className="visually-hidden">Verified account</span>
              </span>
            ) : null}
            {profile.isPrivate ? (
              <span className="profile__badge" title="Private account">
                <LockIcon width={16} height={16} />
                <span className="visually-hidden">Private account</span>
              </span>
            ) : null}
          </h1>
          <p className="profile__username">@{profile.username}</p>
        </div>
        {actions ? <div className="profile__actions">{actions}</div> : null}
      </header>

      {profile.bio ? <p className="profile__bio">{profile.bio}</p> : null}

      <ul className="profile__facts" aria-label="About">
        {profile.location ? (
          <li>
            <span className="visually-hidden">Location: </span>
            {profile.location}
          </li>
        ) : null}
        {profile.website ? (
          <li>
            <span className="visually-hidden">Website: </span>
            {website ? (
              <a href={website.href} rel="noopener noreferrer nofollow ugc" target="_blank">
                {website.host + (website.pathname === '/' ? '' : website.pathname)}
              </a>
            ) : (
              profile.website
            )}
          </li>
        ) : null}
        {joined ? (
          <li>
            <time dateTime={joinedAt}>Joined {joined}</time>
          </li>
        ) : null}
      </ul>

      <dl className="profile-stats">
        <Stat label="Timelines" value={profile.timelinesCount} />
        <Stat label="Followers" value={counts?.followersCount ?? profile.followersCount} />
        <Stat label="Following" value={counts?.followingCount ?? profile.followingCount} />
        <Stat label="Likes" value={profile.totalLikes} />
        <Stat label="Views" value={profile.totalViews} />
      </dl>
    </section>
  );
}
