import { SavedPage } from '../../../features/collections/components/saved-page';

/** /saved: the posts and timelines the signed-in user bookmarked. */
export default function SavedRoute() {
  return <SavedPage />;
}
