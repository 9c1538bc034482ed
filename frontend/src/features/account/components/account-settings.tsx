import type { ReactNode } from 'react';
import { DataExportSettings } from './data-export-settings';
import './account-settings.css';

/**
 * The settings "Account" tab: taking one's data away, and, kept apart below it, deleting the
 * account (`deleteAccount`, the auth feature's part, put here by the page).
 */
export function AccountSettings({ deleteAccount }: { deleteAccount?: ReactNode }) {
  return (
    <>
      <DataExportSettings />
      <hr className="account-settings__separator" aria-hidden="true" />
      <section className="card settings__form account-settings__delete" aria-labelledby="delete-account-title" data-section="delete-account">
        <h2 id="delete-account-title" className="settings__heading">
          Delete account
        </h2>
        {deleteAccount}
      </section>
    </>
  );
}
