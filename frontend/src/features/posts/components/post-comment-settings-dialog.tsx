import { CommentSettingsForm, commentSettingsKey } from '../../../components/ui/comment-settings-form';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { usePostCommentSettings, useSavePostCommentSettings } from '../api/post-comment-controls';

export interface PostCommentSettingsDialogProps {
  postId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The author's comment controls of a post, from its options menu. */
export function PostCommentSettingsDialog({ postId, open, onOpenChange }: PostCommentSettingsDialogProps) {
  const settings = usePostCommentSettings(postId, { enabled: open });
  const save = useSavePostCommentSettings(postId);
  const waiting = settings.data?.heldCount ?? 0;
  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Comment settings"
      description={waiting > 0 ? `${waiting} ${waiting === 1 ? 'comment is' : 'comments are'} waiting for your approval under the post.` : 'Held comments wait under the post for your approval.'}
    >
      {settings.data ? (
        <CommentSettingsForm
          key={commentSettingsKey(settings.data)}
          settings={settings.data}
          followersOf="you"
          pending={save.isPending}
          onSave={(rules) =>
            save.mutate(rules, {
              onSuccess: () => {
                toast({ title: 'Comment settings saved' });
                onOpenChange(false);
              },
              onError: (error) => toast({ title: 'Comment settings not saved', description: errorMessage(error, 'Please try again'), variant: 'destructive' }),
            })
          }
        />
      ) : settings.isError ? (
        <p>The settings could not be loaded.</p>
      ) : (
        <Spinner label="Loading comment settings..." />
      )}
    </ResponsiveDialog>
  );
}
