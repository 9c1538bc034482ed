import { lazy } from 'react';
import { OnDemandMenu } from '../../../components/ui/on-demand-menu';

export const POST_OPTIONS_LABEL = 'Post options';
/** The button's class, the same before and after its menu's code has loaded. */
export const POST_OPTIONS_CLASS = 'icon-button feed-card__menu';

/** The author's options (Edit Post, Comment settings, Delete Post), or someone else's (Report Post). */
export type PostOptionsProps =
  | {
      onEdit: () => void;
      onDelete: () => void;
      /** Who may comment, and which comments wait for approval. */
      onCommentSettings: () => void;
      onReport?: never;
    }
  | {
      /** Opens the report dialog for the post. */
      onReport: () => void;
      onEdit?: never;
      onDelete?: never;
      onCommentSettings?: never;
    };

const loadMenu = () => import('./post-options-menu');
const PostOptionsMenu = lazy(loadMenu);

/** The options button on a post card; the menu's code loads on first use. */
export function PostOptions(props: PostOptionsProps) {
  return (
    <OnDemandMenu label={POST_OPTIONS_LABEL} className={POST_OPTIONS_CLASS} popup="menu" preload={() => void loadMenu()}>
      <PostOptionsMenu {...props} />
    </OnDemandMenu>
  );
}
