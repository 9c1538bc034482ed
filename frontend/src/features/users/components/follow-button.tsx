import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useFollow } from '../api/follow';

export interface FollowButtonProps {
  personId: string;
  /** Their display name: for the toast, and in the button's name when `named`. */
  name: string;
  viewerId: string | undefined;
  following: boolean;
  /** In a list of people each button says whom it follows ('Follow Ada Lovelace'). */
  named?: boolean;
  size?: 'sm' | 'md';
}

/**
 * Follow / Unfollow (spec 001, "Profile"). The button and the counts change at once; when the
 * server refuses they go back and a toast says why.
 */
export function FollowButton({ personId, name, viewerId, following, named = false, size = 'md' }: FollowButtonProps) {
  const follow = useFollow(personId, viewerId, {
    onError: (error, change) =>
      toast({
        title: change.follow ? `Couldn't follow ${name}` : `Couldn't unfollow ${name}`,
        description: errorMessage(error, 'Please check your connection and try again.'),
        variant: 'destructive',
      }),
  });
  const text = following ? 'Unfollow' : 'Follow';
  return (
    <button
      type="button"
      className={`button ${following ? 'button--secondary' : 'button--primary'}${size === 'sm' ? ' button--sm' : ''} follow-button`}
      aria-label={named ? `${text} ${name}` : undefined}
      onClick={() => {
        // One change at a time: a second click waits for the first answer.
        if (!follow.isPending) follow.mutate({ follow: !following });
      }}
    >
      {text}
    </button>
  );
}
