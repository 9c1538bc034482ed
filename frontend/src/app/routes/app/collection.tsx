import { useParams } from 'react-router';
import { CollectionPage } from '../../../features/collections/components/collection-page';

/** /collections/{id}: one collection and its timelines. */
export default function CollectionRoute() {
  const { id = '' } = useParams();
  return <CollectionPage key={id} id={id} />;
}
