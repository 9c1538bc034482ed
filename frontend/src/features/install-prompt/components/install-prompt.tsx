import { AddSquareIcon, CloseIcon, ShareIcon } from '../../../components/ui/icons';
import { useInstallPrompt } from '../hooks/use-install-prompt';
import './install-prompt.css';

/** The install prompt for mobile visitors (spec 000, section 4). */
export function InstallPrompt() {
  const { kind, dismiss, install } = useInstallPrompt();
  if (kind === 'none') return null;

  return (
    <section className="install-prompt" aria-labelledby="install-prompt-title">
      <div className="install-prompt__head">
        <h2 className="install-prompt__title" id="install-prompt-title">
          Install Timeliner
        </h2>
        <button type="button" className="icon-button" aria-label="Dismiss install prompt" onClick={dismiss}>
          <CloseIcon width={20} height={20} />
        </button>
      </div>

      {kind === 'ios' ? (
        <>
          <p className="install-prompt__text">Add this app to your home screen for quick, full-screen access:</p>
          <ol className="install-prompt__steps">
            <li>
              Tap the Share button <ShareIcon className="install-prompt__inline-icon" width={18} height={18} />
            </li>
            <li>
              Find &apos;Add to Home Screen&apos;{' '}
              <AddSquareIcon className="install-prompt__inline-icon" width={18} height={18} />
            </li>
            <li>Tap &apos;Add&apos; to finish</li>
          </ol>
          <div className="install-prompt__actions">
            <button type="button" className="button button--primary" onClick={dismiss}>
              Got it!
            </button>
          </div>
        </>
      ) : null}

      {kind === 'android' ? (
        <>
          <p className="install-prompt__text">Install the app for quick access from your home screen.</p>
          <div className="install-prompt__actions">
            <button type="button" className="button button--ghost" onClick={dismiss}>
              Later
            </button>
            <button type="button" className="button button--primary" onClick={() => void install()}>
              Install Now
            </button>
          </div>
        </>
      ) : null}

      {kind === 'other' ? (
        <p className="install-prompt__text">
          To install this app, look for &apos;Add to Home Screen&apos; in your browser menu.
        </p>
      ) : null}
    </section>
  );
}
