import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreIcon } from '../../../components/ui/icons';
import { POST_OPTIONS_CLASS, POST_OPTIONS_LABEL, type PostOptionsProps } from './post-options';

/**
 * Edit Post, Comment settings and Delete Post for the post's author; Report Post for anyone else.
 * Loaded on first use, and then open at once.
 */
export default function PostOptionsMenu(props: PostOptionsProps) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger className={POST_OPTIONS_CLASS} aria-label={POST_OPTIONS_LABEL}>
        <MoreIcon width={20} height={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
          {props.onReport ? (
            <DropdownMenu.Item className="menu__item" onSelect={props.onReport}>
              Report Post
            </DropdownMenu.Item>
          ) : (
            <>
              <DropdownMenu.Item className="menu__item" onSelect={props.onEdit}>
                Edit Post
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu__item" onSelect={props.onCommentSettings}>
                Comment settings
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu__item menu__item--danger" onSelect={props.onDelete}>
                Delete Post
              </DropdownMenu.Item>
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
