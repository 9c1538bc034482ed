import './spinner.css';

/** An indeterminate progress indicator announced to assistive technology as `label`. */
export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <span className="spinner" role="status">
      <span className="spinner__circle" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
