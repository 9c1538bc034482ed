import { Link, useSearchParams } from 'react-router';
import { PageState } from '../../../components/ui/page-state';

export default function StudioRoute() {
  const [params] = useSearchParams();
  const creating = params.get('create') === 'true';
  return (
    <>
      <title>Creator Studio · Timeliner</title>
      <PageState
        title="Creator Studio"
        actions={
          <Link to="/" className="button button--secondary">
            Back to Feed
          </Link>
        }
      >
        {creating ? (
          <p>Creating a timeline isn&apos;t available yet.</p>
        ) : (
          <p>Your timelines can&apos;t be listed here yet.</p>
        )}
      </PageState>
    </>
  );
}
