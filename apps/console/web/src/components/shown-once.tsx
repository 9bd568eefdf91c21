import { CopyButton } from './copy-button';

export interface ShownOnceProps {
  /** The secret, which the page keeps nowhere else. */
  value: string;
  /** What the copy button says it copies. */
  copyLabel: string;
  /** The button that lets the secret go ("I have stored the key"). */
  storedLabel: string;
  testId: string;
  onDismiss: () => void;
}

/** A secret shown this once (a new API key, a webhook signing secret): the value, its copy button, and the button that lets it go. */
export function ShownOnce({ value, copyLabel, storedLabel, testId, onDismiss }: ShownOnceProps) {
  return (
    <>
      <div className="secret">
        <code data-testid={testId}>{value}</code>
        <CopyButton value={value} label={copyLabel} />
      </div>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onDismiss}>
          {storedLabel}
        </button>
      </div>
    </>
  );
}
