const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp in the reader's locale, machine-readable in the markup; "never" for null. */
export function DateTime({ value, never = 'Never' }: { value: string | null; never?: string }) {
  if (!value) return <span className="muted">{never}</span>;
  return <time dateTime={value}>{FORMAT.format(new Date(value))}</time>;
}
