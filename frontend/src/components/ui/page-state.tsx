import type { ReactNode } from 'react';
import './page-state.css';

export interface PageStateProps {
  title: string;
  /** The heading level; a page's own title is an h1. */
  as?: 'h1' | 'h2';
  children?: ReactNode;
  actions?: ReactNode;
  icon?: ReactNode;
}

/** A centred title, explanation and actions: empty, error and not-found states. */
export function PageState({ title, as: Heading = 'h1', children, actions, icon }: PageStateProps) {
  return (
    <section className="page-state">
      {icon ? <div className="page-state__icon">{icon}</div> : null}
      <Heading className="page-state__title">{title}</Heading>
      {children ? <div className="page-state__text">{children}</div> : null}
      {actions ? <div className="page-state__actions">{actions}</div> : null}
    </section>
  );
}
