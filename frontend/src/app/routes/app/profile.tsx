import { Link, useParams } from 'react-router';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { useUser } from '../../../features/auth/api/get-me';
import { useProfile } from '../../../features/users/api/get-profile';
import { ProfileView } from '../../../features/users/components/profile-view';
import { isUserId } from '../../../features/users/lib/user-id';
import { ApiError } from '../../../lib/api-client';

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

function ProfileContent({ id }: { id: string }) {
  const profile = useProfile(id);
  const { data: me } = useUser();

  if (profile.isPending) {
    return (
      <div className="page-state">
        <Spinner label="Loading profile..." />
      </div>
    );
  }
  if (profile.isError) {
    const { error } = profile;
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

  const isSelf = me?.id === profile.data.id;
  return (
    <>
      <title>{`${profile.data.displayName} · Timeliner`}</title>
      <ProfileView
        profile={profile.data}
        actions={
          isSelf ? (
            <Link to="/settings" className="button button--secondary">
              Edit Profile
            </Link>
          ) : null
        }
      />
    </>
  );
}

export default function ProfileRoute() {
  const { id } = useParams();
  if (!isUserId(id)) return <InvalidProfile />;
  return <ProfileContent key={id} id={id} />;
}
