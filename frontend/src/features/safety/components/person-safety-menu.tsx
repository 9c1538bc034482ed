import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import './safety.css';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { MoreIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useBlockPerson } from '../api/block-person';
import { useMuteStatus } from '../api/get-mute-status';
import { useMutePerson } from '../api/mute-person';
import { PERSON_SAFETY_CLASS, personSafetyLabel, type PersonSafetyMenuProps } from './person-safety-options';

/**
 * The options of someone else's profile: Mute / Unmute (they are not told) and Block, asked
 * first: blocking removes the follows both ways, and neither sees the other any more. Loaded on
 * first use, and then open at once.
 */
export default function PersonSafetyMenu({ personId, name, onBlocked, onMuteChanged }: PersonSafetyMenuProps) {
  const [open, setOpen] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const status = useMuteStatus(personId, { enabled: open });
  const muted = status.data?.muted ?? false;
  const mute = useMutePerson({
    onSuccess: ({ muted: now }) => {
      toast({ title: now ? `You muted ${name}` : `You unmuted ${name}`, description: now ? "Their posts and timelines won't appear in your feeds or search. They won't be told." : undefined });
      onMuteChanged?.();
    },
  });
  const block = useBlockPerson({
    onSuccess: () => {
      setConfirming(false);
      toast({ title: `You blocked ${name}`, description: 'You can unblock them in Settings, Blocks and mutes.' });
      onBlocked();
    },
  });

  return (
    <>
      <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger className={PERSON_SAFETY_CLASS} aria-label={personSafetyLabel(name)}>
          <MoreIcon width={20} height={20} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4} collisionPadding={8}>
            <DropdownMenu.Item
              className="menu__item"
              disabled={status.isPending || mute.isPending}
              onSelect={() =>
                mute.mutate(
                  { id: personId, muted: !muted },
                  { onError: (error) => toast({ title: 'Something went wrong', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }) },
                )
              }
            >
              {muted ? `Unmute ${name}` : `Mute ${name}`}
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu__item safety-menu__danger" onSelect={() => setConfirming(true)}>
              {`Block ${name}`}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Block ${name}?`}
        description={
          <>
            You will stop following each other, and neither of you will see the other&apos;s profile, timelines, posts, comments or likes. They can&apos;t
            follow, mention, invite or comment on you. They won&apos;t be told.
            {block.isError ? (
              <span className="alert" role="alert">
                {' '}
                {errorMessage(block.error, 'They could not be blocked. Please try again.')}
              </span>
            ) : null}
          </>
        }
        confirmLabel="Block"
        pendingLabel="Blocking..."
        pending={block.isPending}
        onConfirm={() => block.mutate({ id: personId, blocked: true })}
      />
    </>
  );
}
