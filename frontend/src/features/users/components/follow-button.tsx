import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useFollow } from '../api/follow-user';

export interface FollowButtonProps {
  personId: string;
  /** Their display name: for the toast, and in the button's name when `named`. */
  name: string;
  viewerId: string | undefined;
  following: boolean;
  /** The caller asked to follow this private account and waits for its answer. */
  requested?: boolean;
  /** The person's account is private: Follow asks it (a follow request). */
  privateAccount?: boolean;
  /** In a list of people each button says whom it follows ('Follow Ada Lovelace'). */
  named?: boolean;
  size?: 'sm' | 'md';
}

/**
 * Follow / Unfollow (spec 001, "Profile"); on a private account Follow asks it and the button says
 * Requested until the owner answers (pressing it again takes the request back). The button and
 * the counts change at once; when the server refuses they go back and a toast says why.
 */
export function FollowButton({ personId, name, viewerId, following, requested = false, privateAccount = false, named = false, size = 'md' }: FollowButtonProps) {
  const follow = useFollow(personId, viewerId, {
    privateAccount,
    onError: (error, change) =>
      toast({
        title: change.follow ? `Couldn't follow ${name}` : `Couldn't unfollow ${name}`,
        description: errorMessage(error, 'Please check your connection and try again.'),
        variant: 'destructive',
      }),
  });
  const pending = requested && !following;
  const text = following ? 'Unfollow' : pending ? 'Requested' : 'Follow';
  return (
    <button
      type="button"
      className={`button ${following || pending ? 'button--secondary' : 'button--primary'}${size === 'sm' ? ' button--sm' : ''} follow-button`}
      aria-label={named ? `${text} ${name}` : pending ? 'Requested: take back the follow request' : undefined}
      onClick={() => {
        // One change at a time: a second click waits for the first answer.
        if (!follow.isPending) follow.mutate({ follow: !(following || pending) });
      }}
    >
      {text}
    </button>
  );
}
