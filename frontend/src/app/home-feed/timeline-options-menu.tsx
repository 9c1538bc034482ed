import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ResponsiveDialog } from '../../components/ui/dialog';
import { MoreIcon } from '../../components/ui/icons';
import { SaveToCollection } from '../../features/collections/components/save-to-collection';
import { useIsMobile } from '../../features/feed/hooks/use-is-mobile';
import { optionsTrigger, type TimelineOptionsProps } from './options-trigger';

/**
 * View Timeline, Save to collection, Timeline Settings (its creator only) and Report Post: a bottom sheet titled
 * 'Timeline Options' under 768 px, a dropdown otherwise (spec 000, section 2). Loaded on first use, and
 * then open at once: the tap that asked for it is the one that opens it.
 */
export default function TimelineOptionsMenu({ timelineId, title, isCreator, onReport }: TimelineOptionsProps) {
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const [sheetOpen, setSheetOpen] = useState(mobile);
  const sheetTrigger = useRef<HTMLButtonElement>(null);
  // The sheet first opens from the button that stood in while this code loaded, which is gone by
  // now: on closing, focus comes back to this button unless something else (a dialog the chosen
  // item opened) has taken it.
  const changeSheet = (open: boolean) => {
    setSheetOpen(open);
    if (!open) {
      requestAnimationFrame(() => {
        if (document.activeElement === document.body) sheetTrigger.current?.focus();
      });
    }
  };
  const [saving, setSaving] = useState(false);
  const id = encodeURIComponent(timelineId);
  const items = [
    { label: 'View Timeline', action: () => void navigate(`/watch/${id}`) },
    { label: 'Save to collection', action: () => setSaving(true) },
    ...(isCreator ? [{ label: 'Timeline Settings', action: () => void navigate(`/timeline/${id}`) }] : []),
    { label: 'Report Post', action: onReport },
  ];
  const trigger = optionsTrigger(title);

  if (mobile) {
    return (
      <>
        <button type="button" ref={sheetTrigger} {...trigger} aria-haspopup="dialog" onClick={() => setSheetOpen(true)}>
          <MoreIcon width={20} height={20} />
        </button>
        <ResponsiveDialog open={sheetOpen} onOpenChange={changeSheet} title="Timeline Options">
          <ul className="options-sheet">
            {items.map((item) => (
              <li key={item.label}>
                <button
                  type="button"
                  className="button button--ghost button--block options-sheet__item"
                  onClick={() => {
                    changeSheet(false);
                    item.action();
                  }}
                >
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </ResponsiveDialog>
        <SaveToCollection timelineId={timelineId} title={title} open={saving} onOpenChange={setSaving} />
      </>
    );
  }

  return (
    <>
      <DropdownMenu.Root modal={false} defaultOpen>
        <DropdownMenu.Trigger {...trigger}>
          <MoreIcon width={20} height={20} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
            {items.map((item) => (
              <DropdownMenu.Item key={item.label} className="menu__item" onSelect={item.action}>
                {item.label}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <SaveToCollection timelineId={timelineId} title={title} open={saving} onOpenChange={setSaving} />
    </>
  );
}
