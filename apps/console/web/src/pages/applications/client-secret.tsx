import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DateTime } from '../../components/date-time';
import { type Application, useRotateSecret } from './application-queries';

/**
 * The client secret, masked until Reveal; Rotate (after a confirmation) shows the new one once.
 * Viewers get no secret from the API, so they see neither.
 */
export function ClientSecret({ tenantId, application }: { tenantId: string; application: Application }) {
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const rotate = useRotateSecret(tenantId, application.organizationId, application.id);
  const secret = application.clientSecret;
  if (!secret) return <span className="muted">Only admins and owners see the client secret.</span>;

  return (
    <div className="secret">
      <code aria-label="Client secret">{revealed ? secret : '•'.repeat(24)}</code>
      <button type="button" className="button button-small" onClick={() => setRevealed(!revealed)} aria-pressed={revealed}>
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
          <p>The new client secret (shown once here; Reveal shows it again while you are an admin):</p>
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
