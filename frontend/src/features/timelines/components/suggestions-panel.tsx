import type { Suggestion, SuggestionAction } from '../lib/suggestions';
import './timelines.css';

const ACTION_LABELS: Record<SuggestionAction, string> = {
  upload: 'Go to upload',
  settings: 'Open settings',
  invite: 'Invite someone',
};

export interface SuggestionsPanelProps {
  suggestions: Suggestion[];
  refreshing: boolean;
  onRefresh: () => void;
  onAction: (action: SuggestionAction) => void;
}

/**
 * Next steps worked out from the timeline's own data. Refresh asks the server again for every
 * figure they are based on; the list follows what comes back.
 */
export function SuggestionsPanel({ suggestions, refreshing, onRefresh, onAction }: SuggestionsPanelProps) {
  return (
    <section className="card studio-section" aria-labelledby="suggestions-title" aria-busy={refreshing}>
      <div className="studio-section__head">
        <div>
          <h2 className="studio-section__title" id="suggestions-title">
            Suggestions
          </h2>
          <p className="muted">Based on this timeline&apos;s details, team and performance.</p>
        </div>
        <button type="button" className="button button--secondary button--sm" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? 'Refreshing...' : 'Refresh suggestions'}
        </button>
      </div>
      {suggestions.length === 0 ? (
        <p className="section-state">Nothing to suggest right now: this timeline is in good shape.</p>
      ) : (
        <ul className="suggestions" aria-label="Suggestions">
          {suggestions.map((suggestion) => (
            <li key={suggestion.id} className="suggestions__item">
              <h3 className="suggestions__title">{suggestion.title}</h3>
              <p className="suggestions__text">{suggestion.description}</p>
              {suggestion.action ? (
                <button
                  type="button"
                  className="link-button suggestions__action"
                  onClick={() => onAction(suggestion.action as SuggestionAction)}
                  aria-label={`${ACTION_LABELS[suggestion.action]}: ${suggestion.title}`}
                >
                  {ACTION_LABELS[suggestion.action]}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
