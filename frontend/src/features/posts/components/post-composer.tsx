import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreatePost } from '../api/create-post';
import { POST_MAX_LENGTH } from '../lib/post-length';
import type { Post } from '../api/types';
import './posts.css';

export const COMPOSER_PROMPT = 'What timeline are you working on today?';
export const EMPTY_POST_MESSAGE = 'Please enter something to share';
export const POST_SHARED_MESSAGE = 'Your post has been shared!';

export interface PostComposerProps {
  user: { displayName: string; avatar: string | null };
  onCreated: (post: Post) => void;
}

/** The home page's post box: Share or Enter (without Shift) posts the trimmed text. */
export function PostComposer({ user, onCreated }: PostComposerProps) {
  const id = useId();
  const [content, setContent] = useState('');
  const [sensitive, setSensitive] = useState(false);
  // Spec 001 section 8: the toasts a post's sharing ends with.
  const create = useCreatePost({
    onSuccess: (post) => {
      setContent('');
      setSensitive(false);
      onCreated(post);
      toast({ title: POST_SHARED_MESSAGE });
    },
    onError: (error) =>
      toast({ title: `Failed to share post: ${errorMessage(error, 'Please check your connection and try again.')}`, variant: 'destructive' }),
  });

  const submit = () => {
    const text = content.trim();
    if (!text) {
      toast({ title: EMPTY_POST_MESSAGE, variant: 'destructive' });
      return;
    }
    if (!create.isPending) create.mutate(sensitive ? { content: text, sensitive } : text);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form className="card post-composer" onSubmit={onSubmit} aria-label="Share a post">
      <Avatar name={user.displayName} src={user.avatar} />
      <div className="post-composer__body">
        <label htmlFor={`${id}-text`} className="visually-hidden">
          {COMPOSER_PROMPT}
        </label>
        <textarea
          id={`${id}-text`}
          className="post-composer__input"
          placeholder={COMPOSER_PROMPT}
          rows={2}
          maxLength={POST_MAX_LENGTH}
          value={content}
          onChange={(event) => setContent(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="post-composer__actions">
          <label className="post-composer__sensitive">
            <input type="checkbox" checked={sensitive} onChange={(event) => setSensitive(event.target.checked)} /> Sensitive
          </label>
          <button type="submit" className="button button--primary button--sm" disabled={create.isPending}>
            {create.isPending ? 'Sharing...' : 'Share'}
          </button>
        </div>
      </div>
    </form>
  );
}
