import { useId, useState, type ReactNode } from 'react';
import './collapsible-section.css';

export interface CollapsibleSectionProps {
  title: string;
  children: ReactNode;
  defaultOpen?: boolean;
}

/** A card whose heading is a disclosure button that shows or hides its content. */
export function CollapsibleSection({ title, children, defaultOpen = true }: CollapsibleSectionProps) {
  const id = useId();
  const [open, setOpen] = useState(defaultOpen);
  return (
    <section className="card collapsible" aria-labelledby={`${id}-heading`}>
      <h2 className="collapsible__heading" id={`${id}-heading`}>
        <button
          type="button"
          className="collapsible__toggle"
          aria-expanded={open}
          aria-controls={`${id}-content`}
          onClick={() => setOpen((current) => !current)}
        >
          <span>{title}</span>
          <svg className="collapsible__chevron" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </h2>
      <div className="collapsible__content" id={`${id}-content`} hidden={!open}>
        {children}
      </div>
    </section>
  );
}
