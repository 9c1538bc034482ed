import { useState, type ReactNode } from 'react';
import { useViewingPreferences } from '../api/viewing-preferences';
import './sensitive-cover.css';

export interface SensitiveCoverProps {
  /** Marked sensitive (by its creator or the moderators). */
  sensitive: boolean;
  /** What it is, for the cover's words: "timeline", "video", "post". */
  noun?: string;
  /** Signed out: nobody's preference to read, the cover stays until Show. */
  signedIn?: boolean;
  /** A picture of it (a thumbnail), shown blurred on the cover. */
  preview?: string | null;
  className?: string;
  /** More ways out beside Show (a Back button on a full-screen cover). */
  actions?: ReactNode;
  /** Told when the viewer chooses Show. */
  onShow?: () => void;
  children: ReactNode;
}

/**
 * A blurred cover with "Show" in place of what is marked sensitive, unless the viewer chose "Always
 * show sensitive media" (their preference, read from the server). Until that preference is known
 * the cover stays: nothing sensitive flashes by.
 */
export function SensitiveCover({ sensitive, noun = 'timeline', signedIn = true, preview, className, actions, onShow, children }: SensitiveCoverProps) {
  const [shown, setShown] = useState(false);
  const preferences = useViewingPreferences({ enabled: sensitive && signedIn });
  if (!sensitive || shown || preferences.data?.alwaysShowSensitive) return <>{children}</>;
  return (
    // What is covered is not rendered at all (no video plays, nothing behind takes focus).
    <div className={`sensitive-cover${className ? ` ${className}` : ''}`} data-testid="sensitive-cover">
      {preview ? <img className="sensitive-cover__blur" src={preview} alt="" /> : <div className="sensitive-cover__blur" />}
      <div className="sensitive-cover__notice" role="group" aria-label="Sensitive content">
        <p className="sensitive-cover__title">Sensitive content</p>
        <p className="sensitive-cover__text">This {noun} was marked sensitive. It may show things some people would rather not see.</p>
        <div className="sensitive-cover__actions">
          <button type="button" className="button button--primary" onClick={() => {
              setShown(true);
              onShow?.();
            }}
          >
            Show
          </button>
          {actions}
        </div>
      </div>
    </div>
  );
}
