import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { copyText } from '../../../lib/clipboard';
import { emailIntent, facebookIntent, linkedInIntent, smsIntent, twitterIntent } from '../../../lib/share-intents';
import type { Post } from '../api/types';
import { postLink } from '../lib/post-link';
import './posts.css';


export async function copyPost(post: Post, origin: string): Promise<void> {
  if (await copyText(`${post.content}\n\n${postLink(origin, post)}`)) {
    toast({ title: 'Post copied!', description: 'Post content and link copied to clipboard.' });
  } else {
    toast({ title: 'Failed to copy', description: 'Could not copy to clipboard.', variant: 'destructive' });
  }
}

export interface SharePostDialogProps {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Share Post: copy the content and link, or open Twitter, Facebook, LinkedIn, e-mail or SMS. */
export function SharePostDialog({ post, open, onOpenChange }: SharePostDialogProps) {
  const origin = window.location.origin;
  const url = postLink(origin, post);
  const author = post.user?.displayName || 'Someone';
  const intents = [
    { label: 'Twitter', href: twitterIntent(post.content, url) },
    { label: 'Facebook', href: facebookIntent(url) },
    { label: 'LinkedIn', href: linkedInIntent(post.content, url) },
    { label: 'Email', href: emailIntent(`Post by ${author}`, `${post.content}\n\n${url}`) },
    { label: 'SMS', href: smsIntent(`${post.content} ${url}`) },
  ];
  return (
    <ResponsiveDialog open={open} onOpenChange={onOpenChange} title="Share Post">
      <button type="button" className="button button--primary button--block" onClick={() => void copyPost(post, origin)}>
        Copy post and link
      </button>
      <ul className="share-options">
        {intents.map((intent) => (
          <li key={intent.label}>
            <a
              className="button button--secondary button--block"
              href={intent.href}
              target={intent.href.startsWith('http') ? '_blank' : undefined}
              rel="noopener noreferrer"
            >
              {intent.label}
            </a>
          </li>
        ))}
      </ul>
    </ResponsiveDialog>
  );
}
