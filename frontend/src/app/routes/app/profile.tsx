import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { useUser } from '../../../lib/current-user';
import { CollectionTimelineCard } from '../../../features/collections/components/collection-timeline-card';
import { statusLabel, statusTone, visibilityLabel, visibilityTone } from '../../../features/timelines/lib/labels';
import { profileQueryKey, useProfile, type Profile } from '../../../features/users/api/get-profile';
import type { UserTimeline } from '../../../features/users/api/user-lists';
import { ProfilePage } from '../../../features/users/components/profile-page';
import { PersonSafetyOptions } from '../../../features/safety/components/person-safety-options';
import { isUserId } from '../../../features/users/lib/user-id';
import { ApiError } from '../../../lib/api-client';

// Loaded when first opened, by the profile's owner only: a visitor never downloads the form.
const EditProfileDialog = lazy(() =>
  import('../../../features/auth/components/edit-profile-dialog').then((module) => ({ default: module.EditProfileDialog })),
);

function InvalidProfile() {
  return (
    <PageState
      title="Invalid Profile"
      actions={
        <Link to="/" className="button button--primary">
          Back to Home
        </Link>
      }
    >
      <p>This profile doesn&apos;t exist.</p>
    </PageState>
  );
}

/** Edit Profile and its dialog; a save shows the new name, picture and counts at once. */
function EditProfile({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        Edit Profile
      </button>
      {open ? (
        <Suspense fallback={null}>
          <EditProfileDialog
            open
            onOpenChange={setOpen}
            profile={profile}
            onSaved={() => void queryClient.invalidateQueries({ queryKey: profileQueryKey(profile.id) })}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** On one's own profile a timeline says who may see it and whether it is published. */
function ProfileTimeline({ timeline, isOwn }: { timeline: UserTimeline; isOwn: boolean }) {
  const aside = isOwn ? (
    <span className="profile-timeline__badges">
      <Badge tone={visibilityTone(timeline.visibility)}>{visibilityLabel(timeline.visibility)}</Badge>
      {timeline.status === 'published' ? null : <Badge tone={statusTone(timeline.status)}>{statusLabel(timeline.status)}</Badge>}
    </span>
  ) : null;
  return <CollectionTimelineCard timeline={timeline} aside={aside} />;
}

function ProfileContent({ id }: { id: string }) {
  const profile = useProfile(id);
  const { data: me } = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (profile.isPending) {
    return (
      <div className="page-state">
        <Spinner label="Loading profile..." />
      </div>
    );
  }
  if (profile.isError) {
    const { error } = profile;
    // Not retried (lib/react-query): an unknown id says so at once.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <InvalidProfile />;
    return (
      <PageState
        title="Profile unavailable"
        actions={
          <button type="button" className="button button--primary" onClick={() => void profile.refetch()}>
            Try again
          </button>
        }
      >
        <p>This profile could not be loaded.</p>
      </PageState>
    );
  }

  const person = profile.data;
  const isSelf = me?.id === person.id;
  return (
    <>
      <title>{`${person.displayName} (@${person.username}) · Timeliner`}</title>
      <ProfilePage
        profile={person}
        viewerId={me?.id}
        selfActions={<EditProfile profile={person} />}
        otherActions={
          <PersonSafetyOptions
            personId={person.id}
            name={person.displayName}
            onBlocked={() => {
              // Gone for both: everything that may show them is asked again, away from their profile.
              void navigate('/', { replace: true });
              void queryClient.invalidateQueries();
            }}
            onMuteChanged={() => void queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] !== 'safety' })}
          />
        }
        renderTimeline={(timeline) => <ProfileTimeline timeline={timeline} isOwn={isSelf} />}
      />
    </>
  );
}

/** /profile/{id} (spec 001, "Profile"). */
export default function ProfileRoute() {
  const { id } = useParams();
  if (!isUserId(id)) return <InvalidProfile />;
  return <ProfileContent key={id} id={id} />;
}
