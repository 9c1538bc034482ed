import { DataExportSettings } from './data-export-settings';
import './account-settings.css';

/**
 * The settings "Account" tab: taking one's data away, and (kept apart below it, once it exists)
 * closing the account.
 */
export function AccountSettings() {
  return (
    <>
      <DataExportSettings />
      {/* Delete account: its own section, after a separator, once the deletion flow exists. */}
      <hr className="account-settings__separator" aria-hidden="true" />
      <section className="card settings__form account-settings__delete" aria-labelledby="delete-account-title" data-section="delete-account">
        <h2 id="delete-account-title" className="settings__heading">
          Delete account
        </h2>
        <p className="data-export__text">Deleting your account is not available here yet. Download your data above to keep a copy of it.</p>
      </section>
    </>
  );
}
