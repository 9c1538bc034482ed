import { useState, type FormEvent } from 'react';

/**
 * A comment box's text. `submit` sends the trimmed text, never an empty one nor while a send is
 * pending, and clears the box once the comment was added (spec 000, section 5).
 */
export function useCommentDraft(pending: boolean, onSubmit: (text: string) => Promise<boolean>) {
  const [content, setContent] = useState('');
  const text = content.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text || pending) return;
    if (await onSubmit(text)) setContent('');
  };
  return { content, setContent, text, submit };
}
