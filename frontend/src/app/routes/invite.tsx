import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { PageState } from '../../components/ui/page-state';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { useUser } from '../../lib/current-user';
import { useAcceptInvitation } from '../../features/collaboration/api/accept-invitation';
import { useDeclineInvitation } from '../../features/collaboration/api/decline-invitation';
import { isExpiredInvitationError, useInvitation } from '../../features/collaboration/api/get-invitation';
import { EXPIRED_MESSAGE, InvitationDetails } from '../../features/collaboration/components/invitation-details';
import { MY_TIMELINES_QUERY_KEY } from '../../features/timelines/api/get-my-timelines';
import { ApiError, errorMessage } from '../../lib/api-client';
import { rememberReturnPath } from '../../lib/return-path';
import '../../features/collaboration/components/collaboration.css';

function HomeAction({ label = 'Go to Timeliner' }: { label?: string }) {
  return (
    <Link to="/" className="button button--primary">
      {label}
    </Link>
  );
}

function InvitationContent({ token }: { token: string }) {
  const invitation = useInvitation(token);
  const me = useUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [declined, setDeclined] = useState(false);

  const accept = useAcceptInvitation({
    onSuccess: ({ timeline }) => {
      void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
      const title = invitation.data?.timeline.title;
      toast({ title: 'Invitation Accepted', description: title ? `You can now work on "${title}".` : undefined });
      void navigate(`/timeline/${encodeURIComponent(timeline.id)}`);
    },
    onError: (error) =>
      toast({ title: 'Failed to Accept Invitation', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
  });
  const decline = useDeclineInvitation({
    onSuccess: () => {
      setDeclined(true);
      toast({ title: 'Invitation Declined', description: 'The person who invited you will see that you declined.' });
    },
    onError: (error) =>
      toast({ title: 'Failed to Decline Invitation', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
  });

  if (declined) {
    return (
      <PageState title="Invitation Declined" actions={<HomeAction />}>
        <p>You declined the invitation{invitation.data ? ` to "${invitation.data.timeline.title}"` : ''}.</p>
      </PageState>
    );
  }
  if (invitation.isPending) {
    return (
      <div className="page-state">
        <Spinner label="Loading invitation..." />
      </div>
    );
  }
  if (invitation.isError) {
    const { error } = invitation;
    if (isExpiredInvitationError(error)) {
      return (
        <PageState title="Invitation Expired" actions={<HomeAction />}>
          <p>{EXPIRED_MESSAGE}</p>
        </PageState>
      );
    }
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      return (
        <PageState title="Invalid Invitation" actions={<HomeAction />}>
          <p>This invitation link is invalid or has already been used.</p>
        </PageState>
      );
    }
    return (
      <PageState
        title="Invitation unavailable"
        actions={
          <button type="button" className="button button--primary" onClick={() => void invitation.refetch()}>
            Try again
          </button>
        }
      >
        <p>The invitation could not be loaded. Check your connection and try again.</p>
      </PageState>
    );
  }

  // While the session is still being checked, who would accept is not known yet.
  const sessionKnown = me.data !== undefined;
  const signedIn = Boolean(me.data);
  const onAccept = () => {
    if (!sessionKnown) return;
    if (!signedIn) {
      // Accepting needs an account: sign in (or sign up), then come back to this invitation.
      rememberReturnPath(`/invite/${encodeURIComponent(token)}`);
      void navigate('/');
      return;
    }
    accept.mutate(token);
  };

  return (
    <div className="invitation">
      <InvitationDetails
        detail={invitation.data}
        accepting={accept.isPending}
        acceptDisabled={!sessionKnown}
        declining={decline.isPending}
        onAccept={onAccept}
        onDecline={() => decline.mutate(token)}
      />
      {sessionKnown && !signedIn ? (
        <p className="muted invitation__hint">You&apos;ll be asked to sign in or create an account to accept.</p>
      ) : null}
    </div>
  );
}

/** The invitation page, open without signing in (spec 001, sections 2 and 8). */
export default function InviteRoute() {
  const { token } = useParams();
  const value = token?.trim();
  return (
    <main className="app-main" id="main">
      <title>Invitation · Timeliner</title>
      <div className="invite__brand">
        <Link to="/" aria-label="Timeliner home">
          <Logo />
        </Link>
      </div>
      {value ? (
        <InvitationContent key={value} token={value} />
      ) : (
        <PageState title="Invalid Invitation Link" actions={<HomeAction />}>
          <p>This invitation link is incomplete. Please check the link you were sent.</p>
        </PageState>
      )}
    </main>
  );
}
