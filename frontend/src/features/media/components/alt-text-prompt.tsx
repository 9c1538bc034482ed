import type { AltPromptItem } from '../hooks/use-alt-text-prompts';
import { AltTextEditor } from './alt-text-editor';
import './alt-text.css';

export interface AltTextPromptProps {
  timelineId: string;
  items: readonly AltPromptItem[];
  /** The item was given its text, or put off with "Add later": it is not asked about again. */
  onAnswered: (mediaId: string) => void;
  /** The heading, instead of what the uploads need. */
  title?: string;
}

function heading(items: readonly AltPromptItem[]): string {
  if (items.length > 1) return `${items.length} uploads need alt text or a description`;
  return items[0]?.kind === 'image' ? 'This image needs alt text' : 'This video needs a description';
}

/**
 * The prompt after an upload: each stored image asks for alt text and each video for a short
 * description, so people who cannot see them know what they show. "Add later" puts one off
 * (remembered by the server: it is not asked again, and the studio lists it until it is added).
 */
export function AltTextPrompt({ timelineId, items, onAnswered, title }: AltTextPromptProps) {
  if (items.length === 0) return null;
  return (
    <section className="alt-prompt" aria-label="Alt text for your uploads">
      <h3 className="alt-prompt__title">{title ?? heading(items)}</h3>
      <p className="alt-prompt__text">Alt text and descriptions tell people who can&apos;t see your media what it shows. Screen readers read them, and anyone can show them with the ALT button.</p>
      <ul className="alt-prompt__items">
        {items.map((item) => (
          <li key={item.mediaId}>
            <AltTextEditor timelineId={timelineId} mediaId={item.mediaId} kind={item.kind} name={item.name} offerLater onDone={() => onAnswered(item.mediaId)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default AltTextPrompt;
