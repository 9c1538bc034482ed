import { lazy, Suspense, useState } from 'react';
import { LogOutIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useLeaveTimeline } from '../api/leave-timeline';

// Loaded when first asked: the player's top bar sends none of the dialog's code with its first paint.
const ConfirmDialog = lazy(() => import('../../../components/ui/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })));

export interface LeaveTimelineButtonProps {
  timelineId: string;
  title: string;
  /** `icon`: the player's top bar; `text`: a button in a page. */
  look?: 'icon' | 'text';
  className?: string;
  /** Once left: the page forgets the timeline and goes elsewhere. */
  onLeft: () => void;
}

/**
 * "Leave timeline" for a collaborator who is not the owner (someone added directly by an
 * invitation to their address never agreed to join): asks once, then leaves at once.
 */
export function LeaveTimelineButton({ timelineId, title, look = 'text', className, onLeft }: LeaveTimelineButtonProps) {
  const [asking, setAsking] = useState(false);
  const leave = useLeaveTimeline({
    onSuccess: () => {
      setAsking(false);
      toast({ title: 'Left Timeline', description: `You are no longer a collaborator on "${title}".` });
      onLeft();
    },
    onError: (error) => {
      setAsking(false);
      toast({ title: 'Failed to Leave Timeline', description: errorMessage(error, 'Please try again'), variant: 'destructive' });
    },
  });
  return (
    <>
      {look === 'icon' ? (
        <button type="button" className={className ?? 'player__icon-button'} onClick={() => setAsking(true)} aria-label="Leave timeline" title="Leave timeline">
          <LogOutIcon width={22} height={22} />
        </button>
      ) : (
        <button type="button" className={className ?? 'button button--ghost button--sm collab-row__remove'} onClick={() => setAsking(true)}>
          Leave timeline
        </button>
      )}
      {asking || leave.isPending ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={asking}
            onOpenChange={setAsking}
            title="Leave Timeline"
            description={`Leave "${title}"? You will no longer be on its team, and you will lose access to it unless it is public.`}
            confirmLabel="Leave"
            pendingLabel="Leaving..."
            pending={leave.isPending}
            onConfirm={() => leave.mutate({ timelineId })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
