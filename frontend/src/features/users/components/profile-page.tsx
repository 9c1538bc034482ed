import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LockIcon } from '../../../components/ui/icons';
import { useFollowRequestCount } from '../api/follow-requests';
import { useFollowStatus } from '../api/get-follow-status';
import type { Profile } from '../api/get-profile';
import type { UserTimeline } from '../api/user-lists';
import { FollowButton } from './follow-button';
import { ProfileTabs } from './profile-tabs';
import { ProfileView } from './profile-view';

export interface ProfilePageProps {
  profile: Profile;
  viewerId: string | undefined;
  /** What one sees on one's own profile instead of Follow (Edit Profile). */
  selfActions?: ReactNode;
  /** Beside Follow on someone else's profile, when signed in (the options menu: mute, block). */
  otherActions?: ReactNode;
  /** A timeline of theirs in the Timelines tab (a card of another feature, composed by the route). */
  renderTimeline: (timeline: UserTimeline) => ReactNode;
}

/**
 * A person's profile: the header with its counts, Follow / Unfollow for someone else (hidden on
 * one's own, spec 001 section 6) and the four tabs.
 */
export function ProfilePage({ profile, viewerId, selfActions, otherActions, renderTimeline }: ProfilePageProps) {
  const isSelf = viewerId === profile.id;
  const status = useFollowStatus(profile.id);
  const requests = useFollowRequestCount(isSelf && profile.isPrivate);
  let actions: ReactNode = null;
  if (isSelf) {
    actions = (
      <>
        {selfActions}
        {profile.isPrivate ? (
          <Link to="/follow-requests" className="button button--secondary">
            Follow requests{requests.data ? ` (${requests.data})` : ''}
          </Link>
        ) : null}
      </>
    );
  } else if (viewerId && status.isPending) {
    // Not known yet: a Follow that turns into Unfollow a moment later would invite a wrong click.
    actions = (
      <>
        <button type="button" className="button button--secondary" disabled>
          Follow
        </button>
        {otherActions}
      </>
    );
  } else if (viewerId) {
    actions = (
      <>
        <FollowButton
          personId={profile.id}
          name={profile.displayName}
          viewerId={viewerId}
          following={status.data?.isFollowing ?? false}
          requested={status.data?.isRequested ?? false}
          privateAccount={profile.isPrivate}
        />
        {otherActions}
      </>
    );
  }

  // A private account to someone who is not an approved follower: the header and the counts only
  // (its tabs are not even asked for until the follow status says they may be seen).
  const privateToOthers = profile.isPrivate && !isSelf;
  const closed = privateToOthers && status.isSuccess && !status.data.isFollowing;
  const undecided = privateToOthers && status.isPending;
  return (
    <div className="page profile-page">
      <ProfileView profile={profile} counts={status.data} actions={actions} />
      {closed ? (
        <section className="card profile__private-note" aria-labelledby="profile-private">
          <LockIcon width={28} height={28} />
          <h2 id="profile-private">This account is private</h2>
          <p>
            {status.data.isRequested
              ? `Your follow request is waiting for ${profile.displayName} to approve it.`
              : `Follow ${profile.displayName} to see their timelines, posts and activity once they approve.`}
          </p>
        </section>
      ) : undecided ? null : (
        <ProfileTabs profile={profile} viewerId={viewerId} isSelf={isSelf} renderTimeline={renderTimeline} />
      )}
    </div>
  );
}
