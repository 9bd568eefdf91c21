import { useState } from 'react';
import { useCan } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DateTime } from '../../components/date-time';
import { ProblemMessage } from '../../components/problem-message';
import { type Application, useReadClientSecret, useRotateSecret } from './application-queries';

const MASK = '•'.repeat(24);

/**
 * The client secret, masked: Reveal and Copy read it from the API when pressed (which may ask the
 * person to confirm it is them); Rotate (after a confirmation) shows the new one once.
 * Viewers may not read it, so they see neither.
 */
export function ClientSecret({ tenantId, application }: { tenantId: string; application: Application }) {
  const canRead = useCan('admin');
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const read = useReadClientSecret(tenantId, application.organizationId, application.id);
  const rotate = useRotateSecret(tenantId, application.organizationId, application.id);
  if (!canRead) return <span className="muted">Only admins and owners see the client secret.</span>;

  const secret = () => (read.data !== undefined ? Promise.resolve(read.data) : read.mutateAsync());
  const toggle = () => {
    if (revealed || read.data !== undefined) return setRevealed(!revealed);
    read.mutate(undefined, { onSuccess: () => setRevealed(true) });
  };
  return (
    <div className="secret">
      <code aria-label="Client secret">{revealed && read.data !== undefined ? read.data : MASK}</code>
      <button type="button" className="button button-small" onClick={toggle} aria-pressed={revealed} disabled={read.isPending}>
        {revealed ? 'Hide' : 'Reveal'}
      </button>
      <CopyButton value={secret} label="Copy client secret" />
      <button type="button" className="button button-small" onClick={() => setConfirming(true)}>
        Rotate
      </button>
      {application.previousSecretExpiresAt && (
        <span className="muted">
          The previous secret works until <DateTime value={application.previousSecretExpiresAt} />.
        </span>
      )}
      <ProblemMessage error={read.error} />
      {confirming && (
        <ConfirmDialog
          title="Rotate the client secret?"
          confirmLabel="Rotate secret"
          danger
          pending={rotate.isPending}
          error={rotate.error}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            rotate.mutate(undefined, {
              onSuccess: (updated) => {
                setConfirming(false);
                setRevealed(false);
                read.reset();
                setRotated(updated.clientSecret);
              },
            })
          }
        >
          <p>Your servers need the new secret. The current one keeps working for a day, so you can deploy it without downtime.</p>
        </ConfirmDialog>
      )}
      {rotated && (
        <div className="notice" role="status">
          <p>The new client secret (shown once here; Reveal reads it again while you are an admin):</p>
          <p className="secret">
            <code>{rotated}</code> <CopyButton value={rotated} label="Copy the new client secret" />
          </p>
          <button type="button" className="button button-small" onClick={() => setRotated(null)}>
            Done
          </button>
        </div>
      )}
    </div>
  );
}
