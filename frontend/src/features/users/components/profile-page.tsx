import type { ReactNode } from 'react';
import { useFollowStatus } from '../api/follow';
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
  /** A timeline of theirs in the Timelines tab (a card of another feature, composed by the route). */
  renderTimeline: (timeline: UserTimeline) => ReactNode;
}

/**
 * A person's profile: the header with its counts, Follow / Unfollow for someone else (hidden on
 * one's own, spec 001 section 6) and the four tabs.
 */
export function ProfilePage({ profile, viewerId, selfActions, renderTimeline }: ProfilePageProps) {
  const isSelf = viewerId === profile.id;
  const status = useFollowStatus(profile.id);
  let actions: ReactNode = null;
  if (isSelf) {
    actions = selfActions;
  } else if (viewerId && status.isPending) {
    // Not known yet: a Follow that turns into Unfollow a moment later would invite a wrong click.
    actions = (
      <button type="button" className="button button--secondary" disabled>
        Follow
      </button>
    );
  } else if (viewerId) {
    actions = <FollowButton personId={profile.id} name={profile.displayName} viewerId={viewerId} following={status.data?.isFollowing ?? false} />;
  }

  return (
    <div className="page profile-page">
      <ProfileView profile={profile} counts={status.data} actions={actions} />
      <ProfileTabs profile={profile} viewerId={viewerId} isSelf={isSelf} renderTimeline={renderTimeline} />
    </div>
  );
}
