import type { ReactNode } from 'react';
import { useEffect } from 'react';

/** The page's heading (and the document title), with its main action on the right. */
export function PageHeader({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Sesame console`;
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="muted">{description}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}
