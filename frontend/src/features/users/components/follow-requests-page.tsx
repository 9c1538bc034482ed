import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAnswerFollowRequest, useFollowRequests } from '../api/follow-requests';
import './profile.css';

/**
 * "Follow requests": the people who asked to follow the caller's private account, newest first,
 * each with Approve (they follow from now on and see the account's content) and Decline (they
 * are not told). Reached from the "asked to follow you" notification and from one's own profile.
 */
export function FollowRequestsPage() {
  const requests = useFollowRequests();
  const answer = useAnswerFollowRequest({
    onError: (error, { approve }) =>
      toast({ title: approve ? "Couldn't approve the request" : "Couldn't decline the request", description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });

  let body;
  if (requests.isPending) body = <Spinner label="Loading follow requests..." />;
  else if (requests.isError) {
    body = (
      <div className="profile-list__state" role="alert">
        <p>The follow requests could not be loaded.</p>
        <button type="button" className="button button--secondary button--sm" onClick={() => void requests.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (requests.data.length === 0) {
    body = (
      <PageState as="h2" title="No follow requests">
        <p>When someone asks to follow your private account, they appear here.</p>
      </PageState>
    );
  } else {
    body = (
      <ul className="profile-list follow-requests" aria-label="Follow requests">
        {requests.data.map((person) => (
          <li key={person.id} className="card person-row">
            <Avatar name={person.displayName} src={person.avatar} />
            <div className="person-row__who">
              <Link to={`/profile/${encodeURIComponent(person.id)}`} className="person-row__name">
                {person.displayName}
              </Link>
              {person.username ? <span className="person-row__username">@{person.username}</span> : null}
            </div>
            <span className="follow-requests__actions">
              <button type="button" className="button button--primary button--sm" aria-label={`Approve ${person.displayName}`} onClick={() => answer.mutate({ userId: person.id, approve: true })}>
                Approve
              </button>
              <button type="button" className="button button--secondary button--sm" aria-label={`Decline ${person.displayName}`} onClick={() => answer.mutate({ userId: person.id, approve: false })}>
                Decline
              </button>
            </span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="page follow-requests-page">
      <h1 className="page__title">Follow requests</h1>
      <p className="profile-list__state">Your account is private: only the people you approve see your timelines, posts and activity.</p>
      {body}
    </div>
  );
}
