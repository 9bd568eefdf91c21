import { useEffect, useId, useRef } from 'react';
import { ShownOnce } from '../../components/shown-once';
import { DateTime } from '../../components/date-time';

export interface SecretShownOnceProps {
  /** The signing secret (`whsec_…`) of the answer that made it. */
  secret: string;
  /** The endpoint's URL, to say whose secret it is. */
  url: string;
  /** After a rotation: until when the replaced secret signs too (absent for a new endpoint). */
  previousSecretExpiresAt?: string;
  onDismiss: () => void;
}

/**
 * The endpoint's signing secret in a modal dialog, this once: the page keeps it in this dialog's
 * props only (not stored, not logged, not in the URL), and it is gone when the dialog closes.
 */
export function SecretShownOnce({ secret, url, previousSecretExpiresAt, onDismiss }: SecretShownOnceProps) {
  const rotated = previousSecretExpiresAt !== undefined;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={onDismiss}>
      <h2 id={titleId}>{rotated ? 'The new signing secret' : 'Endpoint added: its signing secret'}</h2>
      <p>
        <strong>Copy this secret now: it will not be shown again.</strong> Your receiver at <code className="break">{url}</code> verifies
        every delivery’s signature with it (Standard Webhooks).
      </p>
      {rotated && (
        <p className="muted">
          Deliveries are signed with the old secret too until <DateTime value={previousSecretExpiresAt} />, so you can deploy the new one
          without losing a delivery.
        </p>
      )}
      <ShownOnce
        value={secret}
        copyLabel="Copy the signing secret"
        storedLabel="I have stored the secret"
        testId="webhook-secret"
        onDismiss={onDismiss}
      />
    </dialog>
  );
}
