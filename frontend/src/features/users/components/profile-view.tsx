import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { CheckBadgeIcon, LockIcon } from '../../../components/ui/icons';
import { formatCount, formatMonthYear } from '../../../lib/format';
import type { Profile } from '../api/get-profile';
import './profile-view.css';

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
      <dd className="profile-stats__value" title={value.toLocaleString('en')}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

export function ProfileView({ profile, actions }: { profile: Profile; actions?: ReactNode }) {
  const website = profile.website ? safeWebsite(profile.website) : null;
  const joined = formatMonthYear(profile.joinedAt || profile.createdAt);
  return (
    <article className="profile" aria-labelledby="profile-name">
      <header className="profile__header">
        <Avatar name={profile.displayName} src={profile.avatar} size="lg" />
        <div className="profile__identity">
          <h1 className="profile__name" id="profile-name">
            {profile.displayName}
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

      <ul className="profile__facts">
        {profile.location ? <li>{profile.location}</li> : null}
        {profile.website ? (
          <li>
            {website ? (
              <a href={website.href} rel="noopener noreferrer nofollow ugc" target="_blank">
                {website.host + (website.pathname === '/' ? '' : website.pathname)}
              </a>
            ) : (
              profile.website
            )}
          </li>
        ) : null}
        {joined ? <li>Joined {joined}</li> : null}
      </ul>

      <dl className="profile-stats">
        <Stat label="Timelines" value={profile.timelinesCount} />
        <Stat label="Followers" value={profile.followersCount} />
        <Stat label="Following" value={profile.followingCount} />
        <Stat label="Likes" value={profile.totalLikes} />
        <Stat label="Views" value={profile.totalViews} />
      </dl>
    </article>
  );
}
