import { useState } from 'react';

/** Copies a value (or one read when pressed) to the clipboard and says so; the value is never logged or stored. */
export function CopyButton({ value, label }: { value: string | (() => Promise<string>); label: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof value === 'string' ? value : await value());
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <button type="button" className="button button-small" onClick={() => void copy()} aria-label={label}>
      {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
