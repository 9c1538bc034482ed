import { Link } from 'react-router';
import { PageState } from '../../../components/ui/page-state';

export default function TimelineStudioRoute() {
  return (
    <>
      <title>Timeline Studio · Timeliner</title>
      <PageState
        title="Timeline Studio"
        actions={
          <Link to="/studio" className="button button--secondary">
            All Timelines
          </Link>
        }
      >
        <p>Timelines can&apos;t be opened in the studio yet.</p>
      </PageState>
    </>
  );
}
