import { CollectionsPage } from '../../../features/collections/components/collections-page';

/** /collections: 'My Collections' (spec 001, "Collections"). */
export default function CollectionsRoute() {
  return <CollectionsPage />;
}
