import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAddVideoCaption } from '../api/add-video-caption';
import { useDeleteVideoCaption } from '../api/delete-video-caption';
import { useVideoCaptions } from '../api/get-video-captions';
import { languageName } from '../lib/caption-preferences';

/** Languages offered first; any other BCP 47 tag can be typed. */
const COMMON_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'pt-BR', 'nl', 'pl', 'sv', 'tr', 'ru', 'uk', 'ar', 'hi', 'ja', 'ko', 'zh-Hans', 'zh-Hant'];
const MAX_BYTES = 1024 * 1024;

/**
 * A video's captions in Video Management: the languages it has (remove), and a form to add a
 * WebVTT or SRT file in a language (a file for a language it has replaces that track).
 */
export function VideoCaptionsEditor({ videoId, title }: { videoId: string; title: string }) {
  const { data: tracks = [], isLoading } = useVideoCaptions(videoId);
  const add = useAddVideoCaption(videoId);
  const remove = useDeleteVideoCaption(videoId);
  const [language, setLanguage] = useState(() => (typeof navigator !== 'undefined' ? navigator.language : 'en') || 'en');
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { language: useId(), file: useId(), error: useId(), languages: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    setError(null);
    if (!file) return setError('Choose a .vtt or .srt file');
    if (file.size > MAX_BYTES) return setError('The caption file is too large. Maximum size is 1 MB');
    add.mutate(
      { language: language.trim(), file },
      {
        onSuccess: (track) => {
          toast({ title: 'Captions added', description: `${languageName(track.language)} captions for "${title}" (${track.cueCount} cues).` });
          if (fileInput.current?.files?.[0] === file) fileInput.current.value = '';
        },
        onError: (err) => setError(errorMessage(err, 'The captions could not be added. Please try again.')),
      },
    );
  };

  return (
    <section className="video-captions" aria-label={`Captions of ${title}`}>
      <h3 className="video-captions__title">Captions</h3>
      {isLoading ? null : tracks.length === 0 ? (
        <p className="muted">No captions yet.</p>
      ) : (
        <ul className="video-captions__list">
          {tracks.map((track) => (
            <li key={track.language}>
              <span>
                {languageName(track.language)} <span className="muted">({track.language}, {track.cueCount} cues)</span>
              </span>
              <button
                type="button"
                className="button button--ghost button--sm"
                disabled={remove.isPending}
                onClick={() => remove.mutate(track.language, { onError: () => toast({ title: 'Failed to remove captions', variant: 'destructive' }) })}
                aria-label={`Remove ${languageName(track.language)} captions`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="video-captions__form" onSubmit={submit} aria-describedby={error ? ids.error : undefined}>
        <label htmlFor={ids.language}>Language</label>
        <input id={ids.language} list={ids.languages} value={language} onChange={(event) => setLanguage(event.target.value)} required maxLength={35} autoComplete="off" />
        <datalist id={ids.languages}>
          {COMMON_LANGUAGES.map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)}
            </option>
          ))}
        </datalist>
        <label htmlFor={ids.file}>Caption file (WebVTT or SRT, up to 1 MB)</label>
        <input id={ids.file} ref={fileInput} type="file" accept=".vtt,.srt,text/vtt,application/x-subrip" required />
        <button type="submit" className="button button--primary button--sm" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add captions'}
        </button>
        {error ? (
          <p id={ids.error} className="video-captions__error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
