import './logo.css';

/** The product mark and name. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M12 9.5v13l10-6.5z" fill="#fff" />
        <rect x="7" y="24.5" width="18" height="2" rx="1" fill="#fff" opacity="0.8" />
      </svg>
      <span className={compact ? 'logo__name logo__name--wide-only' : 'logo__name'}>Timeliner</span>
    </span>
  );
}
