import { createContext, useContext } from 'react';
import { timesInText } from '../../lib/chapters';

/** Where comments are shown beside their video (the player): a time written in one seeks it. */
export interface CommentTimes {
  /** The video's length in seconds (0 when not known): a time past it stays text. */
  duration: number;
  onSeek: (seconds: number) => void;
}

/** Given by the player's comments; absent elsewhere, where a comment's times are plain text. */
export const CommentTimesContext = createContext<CommentTimes | null>(null);

/** A comment's text, with the times written in it (`1:23`) as buttons that seek the video, when beside one. */
export function CommentTextWithTimes({ text }: { text: string }) {
  const times = useContext(CommentTimesContext);
  if (!times) return <>{text}</>;
  return (
    <>
      {timesInText(text, times.duration).map((piece, at) =>
        'seconds' in piece ? (
          <button key={at} type="button" className="link-button comment-time" aria-label={`Play from ${piece.text}`} onClick={() => times.onSeek(piece.seconds)}>
            {piece.text}
          </button>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
