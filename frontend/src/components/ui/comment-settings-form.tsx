import { useId, useState, type FormEvent } from 'react';
import './field.css';
import './comment-settings-form.css';

export type WhoMayComment = 'everyone' | 'followers' | 'nobody';

/** What the moderators of an item choose for its comments (the server's UpdateCommentSettingsDto). */
export interface CommentRulesInput {
  whoMayComment: WhoMayComment;
  holdAll: boolean;
  heldWords: string[];
  holdNewAccountsDays: number | null;
}

/** The settings as the server tells them to the item's moderators. */
export interface CommentRulesShown {
  whoMayComment: WhoMayComment;
  holdAll: boolean | null;
  heldWords: string[] | null;
  holdNewAccountsDays: number | null;
}

export interface CommentSettingsFormProps {
  settings: CommentRulesShown;
  /** Whose followers "Followers" means: "the owner", "you". */
  followersOf: string;
  pending: boolean;
  onSave: (rules: CommentRulesInput) => void;
}

/** A key that changes with the settings the server holds: the form is drawn again from them. */
export const commentSettingsKey = (settings: CommentRulesShown) => JSON.stringify([settings.whoMayComment, settings.holdAll, settings.heldWords, settings.holdNewAccountsDays]);

const wordsOf = (text: string) => text.split(/[,\n]/).map((word) => word.trim()).filter((word) => word !== '');

/**
 * Comment controls of a timeline (the studio) or a post (its menu): who may comment, and which
 * comments wait for approval (all, those with one of the words, those from new accounts).
 */
export function CommentSettingsForm({ settings, followersOf, pending, onSave }: CommentSettingsFormProps) {
  const id = useId();
  const [who, setWho] = useState<WhoMayComment>(settings.whoMayComment);
  const [holdAll, setHoldAll] = useState(settings.holdAll ?? false);
  const [words, setWords] = useState((settings.heldWords ?? []).join(', '));
  const [days, setDays] = useState(settings.holdNewAccountsDays ? String(settings.holdNewAccountsDays) : '');
  const [daysError, setDaysError] = useState<string>();
  const choices: Array<{ value: WhoMayComment; label: string; hint: string }> = [
    { value: 'everyone', label: 'Everyone', hint: 'Anyone who can see it' },
    { value: 'followers', label: 'Followers', hint: `Only people who follow ${followersOf}` },
    { value: 'nobody', label: 'Nobody', hint: 'Comments are turned off' },
  ];

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const dayCount = days.trim() === '' ? null : Number(days);
    if (dayCount !== null && (!Number.isInteger(dayCount) || dayCount < 1 || dayCount > 365)) {
      setDaysError('Enter a whole number of days from 1 to 365, or leave it empty');
      return;
    }
    setDaysError(undefined);
    onSave({ whoMayComment: who, holdAll, heldWords: wordsOf(words), holdNewAccountsDays: dayCount });
  };
  return (
    <form className="comment-settings__form" onSubmit={onSubmit} noValidate aria-label="Comment settings">
      <fieldset className="comment-settings__group">
        <legend className="field__label">Who can comment</legend>
        {choices.map((option) => (
          <label key={option.value} className="comment-settings__choice">
            <input type="radio" name={`${id}-who`} value={option.value} checked={who === option.value} onChange={() => setWho(option.value)} />
            <span>
              {option.label} <span className="comment-settings__hint">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="comment-settings__group">
        <legend className="field__label">Hold for approval</legend>
        <label className="comment-settings__choice">
          <input type="checkbox" checked={holdAll} onChange={(event) => setHoldAll(event.target.checked)} />
          <span>All comments</span>
        </label>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-words`}>
            Comments containing these words
          </label>
          <textarea id={`${id}-words`} className="field__input" rows={2} value={words} onChange={(event) => setWords(event.target.value)} aria-describedby={`${id}-words-hint`} />
          <p className="field__hint" id={`${id}-words-hint`}>
            Separate words with commas. Whole words, in any case.
          </p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-days`}>
            Comments from accounts younger than (days)
          </label>
          <input
            id={`${id}-days`}
            className="field__input comment-settings__days"
            inputMode="numeric"
            value={days}
            placeholder="Off"
            aria-invalid={daysError ? true : undefined}
            aria-describedby={daysError ? `${id}-days-error` : undefined}
            onChange={(event) => setDays(event.target.value)}
          />
          {daysError ? (
            <p className="field__error" id={`${id}-days-error`}>
              {daysError}
            </p>
          ) : null}
        </div>
      </fieldset>
      <div>
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Saving...' : 'Save comment settings'}
        </button>
      </div>
    </form>
  );
}
