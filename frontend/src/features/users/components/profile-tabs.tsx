import * as Tabs from '@radix-ui/react-tabs';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { LockIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { useAfterFirstRender } from '../../../lib/after-first-render';
import { ApiError } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import type { Profile } from '../api/get-profile';
import { PROFILE_TABS, profileTabOf, useUserList, type Activity, type Person, type ProfileTab, type UserListPage, type UserTimeline } from '../api/user-lists';
import { FollowButton } from './follow-button';

export const PRIVATE_ACCOUNT = 'This account is private';

/** What each tab says when its list is empty, for one's own profile and for someone else's. */
export function emptyText(tab: ProfileTab['value'], name: string, isSelf: boolean): string {
  switch (tab) {
    case 'timelines':
      return isSelf ? "You haven't created any timelines yet." : `${name} hasn't shared any timelines yet.`;
    case 'followers':
      return isSelf ? 'No one follows you yet.' : `No one follows ${name} yet.`;
    case 'following':
      return isSelf ? "You aren't following anyone yet." : `${name} isn't following anyone yet.`;
    case 'activity':
      return isSelf ? 'Your likes, comments, follows and new timelines will show here.' : `${name} has no activity yet.`;
  }
}

interface ListContext {
  profile: Profile;
  viewerId: string | undefined;
  isSelf: boolean;
  renderTimeline: (timeline: UserTimeline) => ReactNode;
}

function PersonRow({ person, viewerId }: { person: Person; viewerId: string | undefined }) {
  const name = person.displayName || person.username || 'Unknown User';
  return (
    <div className="card person-row">
      <Avatar name={name} src={person.avatar} />
      <div className="person-row__who">
        <Link to={`/profile/${encodeURIComponent(person.id)}`} className="person-row__name">
          {name}
        </Link>
        {person.username ? <span className="person-row__username">@{person.username}</span> : null}
      </div>
      {viewerId && person.id !== viewerId ? (
        <FollowButton personId={person.id} name={name} viewerId={viewerId} following={person.isFollowing} named size="sm" />
      ) : null}
    </div>
  );
}

function timelineLink(activity: Activity, fallback: string) {
  return <Link to={`/watch/${encodeURIComponent(activity.targetId)}`}>{activity.metadata.timelineTitle || fallback}</Link>;
}

/** One line of activity in words, with a link to what it is about. */
function ActivityText({ activity }: { activity: Activity }) {
  switch (activity.activityType) {
    case 'created_timeline':
      return <>Created the timeline {timelineLink(activity, 'a timeline')}</>;
    case 'liked_timeline':
      return <>Liked {timelineLink(activity, 'a timeline')}</>;
    case 'commented_timeline':
      return <>Commented on {timelineLink(activity, 'a timeline')}</>;
    case 'shared_timeline':
      return <>Shared {timelineLink(activity, 'a timeline')}</>;
    case 'bookmarked_timeline':
      return <>Saved {timelineLink(activity, 'a timeline')}</>;
    case 'followed_user': {
      const who = activity.metadata.followedUsername ? `@${activity.metadata.followedUsername}` : 'someone';
      return (
        <>
          Followed <Link to={`/profile/${encodeURIComponent(activity.targetId)}`}>{who}</Link>
        </>
      );
    }
  }
}

function ActivityRow({ activity }: { activity: Activity }) {
  return (
    <div className="card activity-row">
      <p className="activity-row__text">
        <ActivityText activity={activity} />
      </p>
      <time className="activity-row__time" dateTime={activity.createdAt}>
        {formatRelativeTime(activity.createdAt)}
      </time>
    </div>
  );
}

type ListQuery<T> = UseInfiniteQueryResult<InfiniteData<UserListPage<T>>>;

interface PagedListProps<T> {
  tab: ProfileTab;
  context: ListContext;
  list: ListQuery<T>;
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string;
}

/** One tab's list: loading, private, failed, empty, or its items with infinite scroll. */
function PagedList<T>({ tab, context: { profile, isSelf }, list, render, keyOf }: PagedListProps<T>) {
  if (list.isPending) return <Spinner label={`Loading ${tab.label.toLowerCase()}...`} />;
  if (list.isError) {
    if (list.error instanceof ApiError && list.error.status === 403) {
      return (
        <PageState as="h2" title={PRIVATE_ACCOUNT} icon={<LockIcon width={28} height={28} />}>
          <p>Follow {profile.displayName} to see their followers, who they follow and their activity.</p>
        </PageState>
      );
    }
    return (
      <div className="profile-list__state" role="alert">
        <p>This list could not be loaded.</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void list.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  const items = list.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="profile-list__state">{emptyText(tab.value, profile.displayName, isSelf)}</p>;
  return (
    <>
      <ul className="profile-list" aria-label={tab.label} aria-busy={list.isFetchingNextPage}>
        {items.map((item) => (
          <li key={keyOf(item)}>{render(item)}</li>
        ))}
      </ul>
      <LoadMore
        className="profile-list__more"
        hasNextPage={list.hasNextPage}
        isFetchingNextPage={list.isFetchingNextPage}
        isFetchNextPageError={list.isFetchNextPageError}
        fetchNextPage={list.fetchNextPage}
      />
    </>
  );
}

const byId = (item: { id: string }) => item.id;

function TimelinesTab({ tab, context }: { tab: ProfileTab; context: ListContext }) {
  const list = useUserList(context.profile.id, 'timelines');
  return <PagedList tab={tab} context={context} list={list} keyOf={byId} render={context.renderTimeline} />;
}

function PeopleTab({ tab, context, kind }: { tab: ProfileTab; context: ListContext; kind: 'followers' | 'following-list' }) {
  const list = useUserList(context.profile.id, kind);
  return <PagedList tab={tab} context={context} list={list} keyOf={byId} render={(person) => <PersonRow person={person} viewerId={context.viewerId} />} />;
}

function ActivityTab({ tab, context }: { tab: ProfileTab; context: ListContext }) {
  const list = useUserList(context.profile.id, 'activity');
  return <PagedList tab={tab} context={context} list={list} keyOf={byId} render={(activity) => <ActivityRow activity={activity} />} />;
}

function TabList({ tab, context }: { tab: ProfileTab; context: ListContext }) {
  switch (tab.list) {
    case 'timelines':
      return <TimelinesTab tab={tab} context={context} />;
    case 'followers':
    case 'following-list':
      return <PeopleTab tab={tab} context={context} kind={tab.list} />;
    case 'activity':
      return <ActivityTab tab={tab} context={context} />;
  }
}

export type ProfileTabsProps = ListContext;

/**
 * Timelines, Followers, Following and Activity (spec 001, "Profile"). The open tab is in the
 * address (?tab=followers), so a reload or a link keeps it; only the open tab's list is fetched.
 */
export function ProfileTabs(props: ProfileTabsProps) {
  const [params, setParams] = useSearchParams();
  const current = profileTabOf(params.get('tab')).value;
  // The open tab's list comes in a render of its own just after the page's first one, so the
  // first paint (the profile's header and the tabs) waits for none of its rows.
  const listShown = useAfterFirstRender();

  const select = (value: string) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        const tab = profileTabOf(value);
        if (tab === PROFILE_TABS[0]) next.delete('tab');
        else next.set('tab', tab.value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  return (
    <Tabs.Root value={current} onValueChange={select} className="profile-tabs">
      <Tabs.List className="profile-tabs__list" aria-label="Profile">
        {PROFILE_TABS.map((tab) => (
          <Tabs.Trigger key={tab.value} value={tab.value} className="profile-tabs__tab">
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {PROFILE_TABS.map((tab) => (
        <Tabs.Content key={tab.value} value={tab.value} className="profile-tabs__panel">
          {current === tab.value && listShown ? <TabList tab={tab} context={props} /> : null}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
