import { PageState } from '../../../components/ui/page-state';

export default function CollectionsRoute() {
  return (
    <>
      <title>My Collections · Timeliner</title>
      <PageState title="My Collections">
        <p>Collections aren&apos;t available yet.</p>
      </PageState>
    </>
  );
}
