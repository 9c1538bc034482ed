import { Link } from 'react-router';
import { PageState } from '../../../components/ui/page-state';

export default function HomeRoute() {
  return (
    <>
      <title>Home · Timeliner</title>
      <PageState
        title="Your Feed"
        actions={
          <Link to="/studio" className="button button--primary">
            Creator Studio
          </Link>
        }
      >
        <p>The feed isn&apos;t available yet. Posts and timelines will appear here once it is.</p>
      </PageState>
    </>
  );
}
