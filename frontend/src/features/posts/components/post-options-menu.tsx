import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreIcon } from '../../../components/ui/icons';
import { POST_OPTIONS_CLASS, POST_OPTIONS_LABEL, type PostOptionsProps } from './post-options';

/** Edit Post, Comment settings and Delete Post, for the post's author. Loaded on first use, and then open at once. */
export default function PostOptionsMenu({ onEdit, onDelete, onCommentSettings }: PostOptionsProps) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger className={POST_OPTIONS_CLASS} aria-label={POST_OPTIONS_LABEL}>
        <MoreIcon width={20} height={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
          <DropdownMenu.Item className="menu__item" onSelect={onEdit}>
            Edit Post
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item" onSelect={onCommentSettings}>
            Comment settings
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu__item menu__item--danger" onSelect={onDelete}>
            Delete Post
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
