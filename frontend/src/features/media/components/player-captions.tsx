import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { formatDuration } from '../../../lib/format';
import { useVideoCaptions } from '../api/get-video-captions';
import { captionPreference, languageName, pickLanguage, rememberCaptionPreference } from '../lib/caption-preferences';
import './player-captions.css';

export interface PlayerCaptionsProps {
  videoId: string;
  media: RefObject<HTMLVideoElement | null>;
  /** Where the transcript panel goes: the player's own region (it stays while the controls hide). */
  panelHost: RefObject<HTMLElement | null>;
  /** Moves the video to this second (a click on a cue of the transcript). */
  onSeek: (seconds: number) => void;
}

interface TranscriptCue {
  start: number;
  end: number;
  text: string;
}

/** A cue's words for the transcript: its markup removed by the browser's own parser (`getCueAsHTML`). */
function cueText(cue: TextTrackCue): string {
  const vtt = cue as VTTCue;
  if (typeof vtt.getCueAsHTML === 'function') return vtt.getCueAsHTML().textContent ?? '';
  return (vtt.text ?? '').replace(/<[^>]*>/g, '');
}

/**
 * The player's captions (loaded on demand, after the first paint): the video's tracks as `<track>`
 * elements, a Captions menu (Off or a language, remembered on this device), and the Transcript
 * panel: the chosen track's cues as a list of buttons, the current one marked, a click seeks.
 */
export default function PlayerCaptions({ videoId, media, panelHost, onSeek }: PlayerCaptionsProps) {
  const { data: tracks = [] } = useVideoCaptions(videoId);
  const [preference, setPreference] = useState(captionPreference);
  const [transcriptOpen, setTranscriptOpen] = useState(false);
  const [cues, setCues] = useState<TranscriptCue[]>([]);
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLOListElement>(null);

  const languages = useMemo(() => tracks.map((t) => t.language), [tracks]);
  const language = pickLanguage(languages, preference.language);
  const showing = preference.on && language !== null;

  // The tracks as <track> elements of the video; the chosen one showing (captions on) or hidden
  // (read for the transcript), the others off.
  useEffect(() => {
    const video = media.current;
    if (!video || tracks.length === 0) return;
    const elements = tracks.map((track) => {
      const element = document.createElement('track');
      element.kind = 'subtitles';
      element.srclang = track.language;
      element.label = languageName(track.language);
      element.src = track.url;
      element.dataset.captions = 'true';
      video.appendChild(element);
      return element;
    });
    return () => {
      for (const element of elements) element.remove();
    };
  }, [media, tracks]);

  useEffect(() => {
    const video = media.current;
    if (!video) return;
    const elements = [...video.querySelectorAll<HTMLTrackElement>('track[data-captions]')];
    const chosen = elements.find((element) => element.srclang === language);
    for (const element of elements) {
      element.track.mode = element !== chosen ? 'disabled' : showing ? 'showing' : transcriptOpen ? 'hidden' : 'disabled';
    }
    const track = chosen && chosen.track.mode !== 'disabled' ? chosen.track : null;
    const read = () => {
      const all = track?.cues ? [...track.cues] : [];
      setCues(all.map((cue) => ({ start: cue.startTime, end: cue.endTime, text: cueText(cue) })));
      // At a cue's start the one before may still be active (its end is that same second): the
      // current cue is the active one that started last.
      const current = [...(track?.activeCues ?? [])].reduce<TextTrackCue | null>((latest, cue) => (!latest || cue.startTime >= latest.startTime ? cue : latest), null);
      setActive(current ? all.indexOf(current) : -1);
    };
    // Read once the modes have taken effect (a track already loaded fires no load event).
    const first = setTimeout(read, 0);
    chosen?.addEventListener('load', read);
    track?.addEventListener('cuechange', read);
    return () => {
      clearTimeout(first);
      chosen?.removeEventListener('load', read);
      track?.removeEventListener('cuechange', read);
    };
  }, [media, tracks, language, showing, transcriptOpen]);

  // The current cue kept in view inside the panel, without moving the focus or the page.
  useEffect(() => {
    const panel = list.current;
    const item = panel?.children[active] as HTMLElement | undefined;
    if (!panel || !item) return;
    const top = item.offsetTop - panel.offsetTop;
    if (top < panel.scrollTop || top + item.offsetHeight > panel.scrollTop + panel.clientHeight) panel.scrollTop = Math.max(0, top - panel.clientHeight / 3);
  }, [active]);

  // C turns captions on and off, as in other players (not while typing, nor with a modifier).
  const toggleRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    toggleRef.current = () => {
      if (!language) return;
      const next = { on: !showing, language };
      setPreference(next);
      rememberCaptionPreference(next);
    };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'c' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target instanceof Element && event.target.closest('input, select, textarea, [contenteditable="true"], [role="dialog"]')) return;
      event.preventDefault();
      toggleRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (tracks.length === 0) return null;

  const choose = (value: string) => {
    const next = value === 'off' ? { on: false, language: preference.language } : { on: true, language: value };
    setPreference(next);
    rememberCaptionPreference(next);
  };
  const panel =
    transcriptOpen && panelHost.current
      ? createPortal(
          <section className="player-transcript" aria-label="Transcript">
            <h2 className="player-transcript__title">Transcript{language ? ` · ${languageName(language)}` : ''}</h2>
            {cues.length === 0 ? (
              <p className="player-transcript__empty">Loading the transcript…</p>
            ) : (
              <ol ref={list} className="player-transcript__list">
                {cues.map((cue, at) => (
                  <li key={`${cue.start}-${at}`}>
                    <button type="button" className="player-transcript__cue" aria-current={at === active ? 'true' : undefined} onClick={() => onSeek(cue.start)}>
                      <span className="player-transcript__time">{formatDuration(cue.start)}</span>
                      <span>{cue.text}</span>
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </section>,
          panelHost.current,
        )
      : null;

  return (
    <>
      <label className="player__quality player-captions__menu">
        <span className="visually-hidden">Captions</span>
        <select value={showing && language ? language : 'off'} onChange={(event) => choose(event.target.value)} aria-label="Captions" aria-keyshortcuts="c">
          <option value="off">CC off</option>
          {tracks.map((track) => (
            <option key={track.language} value={track.language}>
              CC {languageName(track.language)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button button--ghost button--sm player-captions__transcript" aria-expanded={transcriptOpen} onClick={() => setTranscriptOpen((open) => !open)}>
        Transcript
      </button>
      {panel}
    </>
  );
}
