import { ApiProblem } from '../api/problem';

/**
 * The API's field errors of a `validation_failed` answer, by field path (`name`,
 * `whitelistDomains.1`), so each message shows next to its input. Empty for other errors.
 */
export function fieldErrorsOf(error: unknown): Map<string, string> {
  const byField = new Map<string, string>();
  if (!(error instanceof ApiProblem)) return byField;
  for (const { field, messages } of error.problem.errors ?? [])
    byField.set(field, messages.map((message) => withoutFieldName(field, message)).join(' '));
  return byField;
}

/** "whitelistDomains.0 must be an origin …" reads "Must be an origin …" under its own input. */
function withoutFieldName(field: string, message: string): string {
  if (!message.startsWith(`${field} `)) return message;
  const rest = message.slice(field.length + 1);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * The index the API gives an entry of a list input (whitelist domains, callback URLs): empty entries
 * are not sent, so the API numbers only the filled ones. Null for an empty entry (no message of its own).
 */
export function sentIndex(entries: string[], index: number): number | null {
  if (!entries[index]?.trim()) return null;
  return entries.slice(0, index).filter((entry) => entry.trim()).length;
}
