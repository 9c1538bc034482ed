import { useState } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useRequestDeletion } from '../api/delete-account';
import { usePasskeys } from '../api/get-passkeys';
import { useLogout } from '../api/logout';
import { ProofForm } from './proof-form';

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Settings › Account › Delete account: what deleting means, and the confirmation with the
 * password (or a passkey). Every session ends at once, this one too; signing in within 30 days
 * offers to cancel.
 */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const passkeys = usePasskeys();
  const deletion = useRequestDeletion();
  const logout = useLogout();

  return (
    <>
      <p className="data-export__text">
        Deleting your account signs you out on every device. For 30 days you can still change your mind: sign in and choose &quot;Cancel deletion&quot;. After that, your profile, timelines,
        videos and photos, posts, comments, likes, bookmarks, collections, follows and notifications are deleted for good.
      </p>
      <p className="data-export__text">Download your data above first if you want to keep a copy.</p>
      <div className="data-export__actions">
        <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
          Delete account
        </button>
      </div>
      <ResponsiveDialog
        open={open}
        onOpenChange={(next) => {
          if (deletion.isPending) return;
          setOpen(next);
          if (!next) deletion.reset();
        }}
        title="Delete your account?"
        description="You will be signed out everywhere. After 30 days your account and everything you made are deleted for good; signing in before then lets you cancel."
      >
        <ProofForm
          label="Delete your account"
          submitLabel="Delete my account"
          hasPasskey={(passkeys.data?.length ?? 0) > 0}
          pending={deletion.isPending}
          error={deletion.error}
          onCancel={() => setOpen(false)}
          onProof={(proof) =>
            deletion.mutate(proof, {
              onSuccess: ({ purgeAfter }) => {
                setOpen(false);
                toast({ title: 'Your account will be deleted', description: `On ${longDate(purgeAfter)} your account is deleted for good. Sign in before then to cancel.` });
                // This session has ended on the server: what is left of it here goes too.
                logout.mutate();
              },
            })
          }
        />
      </ResponsiveDialog>
    </>
  );
}
