import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ProblemMessage } from './problem-message';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** When set, the person types this (e.g. the organization's name) before confirming. */
  typedConfirmation?: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** A modal confirmation (the browser's <dialog>: focus kept inside, Escape closes). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const confirmed = props.typedConfirmation === undefined || typed === props.typedConfirmation;
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={props.onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed) props.onConfirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        <div className="dialog-body">{props.children}</div>
        {props.typedConfirmation !== undefined && (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{props.typedConfirmation}</strong> to confirm
            </label>
            <input id={inputId} autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
          </div>
        )}
        <ProblemMessage error={props.error} />
        <div className="actions">
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={props.danger ? 'button button-danger' : 'button button-primary'}
            disabled={!confirmed || props.pending}
          >
            {props.pending ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
