import { useState, type FormEvent } from 'react';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAddMutedWord, type MuteWordInput } from '../api/add-muted-word';
import { useBlockPerson } from '../api/block-person';
import { useBlockedPeople, type FilteredPerson } from '../api/get-blocked-people';
import { useMutedPeople } from '../api/get-muted-people';
import { useMutedWords, type MutedWord } from '../api/get-muted-words';
import { useMutePerson } from '../api/mute-person';
import { useRemoveMutedWord } from '../api/remove-muted-word';
import './safety.css';

type Duration = NonNullable<MuteWordInput['duration']>;
const DURATIONS: Array<{ value: Duration; label: string }> = [
  { value: 'day', label: '24 hours' },
  { value: 'week', label: '7 days' },
  { value: 'forever', label: 'Until I remove it' },
];

const untilText = (word: MutedWord) => (word.expiresAt ? `Until ${new Date(word.expiresAt).toLocaleString()}` : 'Until you remove it');

function PersonRows({ people, action, label }: { people: FilteredPerson[]; action: (person: FilteredPerson) => void; label: (person: FilteredPerson) => string }) {
  return (
    <ul className="safety__list">
      {people.map((person) => (
        <li key={person.id} className="safety__row">
          <span className="safety__who">
            <span>{person.displayName}</span>
            {person.username ? <span className="safety__muted">@{person.username}</span> : null}
          </span>
          <button type="button" className="button button--secondary" onClick={() => action(person)} aria-label={`${label(person)} ${person.displayName}`}>
            {label(person)}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Settings, "Blocks and mutes": the blocked accounts with Unblock, the muted accounts with
 * Unmute, and the muted words and hashtags (for 24 hours, 7 days or until removed) with Remove.
 * `onChanged`: the page refreshes its feeds and comments.
 */
export function SafetySettings({ onChanged }: { onChanged?: () => void }) {
  const blocked = useBlockedPeople();
  const muted = useMutedPeople();
  const words = useMutedWords();
  const unblock = useBlockPerson({ onSuccess: () => onChanged?.() });
  const unmute = useMutePerson({ onSuccess: () => onChanged?.() });
  const remove = useRemoveMutedWord({ onSuccess: () => onChanged?.() });
  const [word, setWord] = useState('');
  const [duration, setDuration] = useState<Duration>('forever');
  const [wordError, setWordError] = useState<string>();
  const add = useAddMutedWord({
    onSuccess: (added) => {
      setWord('');
      toast({ title: `Muted "${added.word}"` });
      onChanged?.();
    },
  });
  const failed = (error: Error) => toast({ title: 'Something went wrong', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!word.trim()) {
      setWordError('Please enter a word or a hashtag');
      return;
    }
    setWordError(undefined);
    add.mutate({ word: word.trim(), duration }, { onError: (error) => setWordError(errorMessage(error, 'The word could not be muted. Please try again.')) });
  };

  return (
    <>
      <section className="card settings__form" aria-labelledby="safety-words">
        <h2 id="safety-words" className="settings__heading">
          Muted words and hashtags
        </h2>
        <p className="safety__muted">Posts, timelines, comments and notifications with these words are hidden from you. Nobody is told.</p>
        <form className="safety__word-form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label className="field__label" htmlFor="safety-word">
              Word or hashtag
            </label>
            <input
              id="safety-word"
              className="field__input"
              value={word}
              maxLength={100}
              placeholder="spoilers or #spoilers"
              aria-invalid={wordError ? true : undefined}
              aria-describedby={wordError ? 'safety-word-error' : undefined}
              onChange={(event) => setWord(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="safety-duration">
              For
            </label>
            <select id="safety-duration" className="field__input" value={duration} onChange={(event) => setDuration(event.target.value as Duration)}>
              {DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button--primary" disabled={add.isPending}>
            {add.isPending ? 'Muting...' : 'Mute'}
          </button>
        </form>
        {wordError ? (
          <p id="safety-word-error" className="field__error" role="alert">
            {wordError}
          </p>
        ) : null}
        {words.data && words.data.length > 0 ? (
          <ul className="safety__list" aria-label="Muted words">
            {words.data.map((w) => (
              <li key={w.id} className="safety__row">
                <span className="safety__who">
                  <span>{w.word}</span>
                  <span className="safety__muted">{untilText(w)}</span>
                </span>
                <button type="button" className="button button--secondary" aria-label={`Remove ${w.word}`} disabled={remove.isPending} onClick={() => remove.mutate(w.id, { onError: failed })}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : words.isSuccess ? (
          <p className="safety__empty">You haven&apos;t muted any words.</p>
        ) : null}
      </section>

      <section className="card settings__form" aria-labelledby="safety-muted">
        <h2 id="safety-muted" className="settings__heading">
          Muted accounts
        </h2>
        {muted.data && muted.data.length > 0 ? (
          <PersonRows people={muted.data} label={() => 'Unmute'} action={(person) => unmute.mutate({ id: person.id, muted: false }, { onError: failed })} />
        ) : muted.isSuccess ? (
          <p className="safety__empty">You haven&apos;t muted anyone.</p>
        ) : null}
      </section>

      <section className="card settings__form" aria-labelledby="safety-blocked">
        <h2 id="safety-blocked" className="settings__heading">
          Blocked accounts
        </h2>
        {blocked.data && blocked.data.length > 0 ? (
          <PersonRows people={blocked.data} label={() => 'Unblock'} action={(person) => unblock.mutate({ id: person.id, blocked: false }, { onError: failed })} />
        ) : blocked.isSuccess ? (
          <p className="safety__empty">You haven&apos;t blocked anyone.</p>
        ) : null}
      </section>
    </>
  );
}
