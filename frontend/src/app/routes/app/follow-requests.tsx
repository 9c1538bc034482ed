import { FollowRequestsPage } from '../../../features/users/components/follow-requests-page';

/** /follow-requests: the people who asked to follow the signed-in person's private account. */
export default function FollowRequestsRoute() {
  return <FollowRequestsPage />;
}
