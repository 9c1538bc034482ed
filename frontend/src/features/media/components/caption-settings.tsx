import { useId, useState } from 'react';
import { Switch } from '../../../components/ui/switch';
import { captionPreference, languageName, rememberCaptionPreference } from '../lib/caption-preferences';

const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'sv', 'tr', 'ru', 'uk', 'ar', 'hi', 'ja', 'ko', 'zh'];

/** Captions on this device: shown by default or not, and the language looked for first. */
export function CaptionSettings() {
  const [preference, setPreference] = useState(captionPreference);
  const selectId = useId();
  const update = (next: typeof preference) => {
    setPreference(next);
    rememberCaptionPreference(next);
  };
  return (
    <section className="card settings__form" aria-labelledby="settings-captions">
      <h2 id="settings-captions" className="settings__heading">
        Captions
      </h2>
      <Switch
        label="Show captions"
        description="Videos that have captions show them from the start on this device. The player's CC menu changes this too."
        checked={preference.on}
        onCheckedChange={(on) => update({ ...preference, on })}
      />
      <div className="field">
        <label className="field__label" htmlFor={selectId}>
          Caption language
        </label>
        <select id={selectId} className="field__input" value={preference.language ?? ''} onChange={(event) => update({ ...preference, language: event.target.value || null })}>
          <option value="">The browser&apos;s language</option>
          {LANGUAGES.map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
