const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const WITH_SECONDS = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A timestamp in the reader's locale, machine-readable in the markup; "never" for null. `seconds` where they tell things apart (a delivery's tries). */
export function DateTime({ value, never = 'Never', seconds = false }: { value: string | null; never?: string; seconds?: boolean }) {
  if (!value) return <span className="muted">{never}</span>;
  return <time dateTime={value}>{(seconds ? WITH_SECONDS : FORMAT).format(new Date(value))}</time>;
}
