/** What one drill measured, and its verdict against the pass criteria of docs/reliability.md. */
export interface DrillResult {
  name: string;
  /** Requests the service accepted (2xx). */
  accepted: number;
  /** Requests refused, by status ("timeout" for a request with no answer in time). */
  refused: Record<string, number>;
  /** Login e-mails that arrived, counted once per address; null where the drill sends none. */
  delivered: number | null;
  /** Messages beyond the first to the same address (another Message-ID: the user gets two e-mails). */
  duplicates: number | null;
  /**
   * The same message (same Message-ID) delivered again: a worker that died between the SMTP
   * server's acceptance and recording the send. Reported, not failed: no sender can rule it out,
   * and mailboxes that deduplicate by Message-ID keep one.
   */
  resent: number | null;
  /** Accepted requests whose e-mail never arrived. */
  lost: number | null;
  /** The longest request → arrival time of a login e-mail. */
  worstDelayMs: number | null;
  /** From the dependency's return to a fresh login accepted and its e-mail arrived; null where nothing was down. */
  recoveryMs: number | null;
  /** 5xx answers the drill did not expect (any 5xx but a 503 while a dependency was down). */
  unexpected5xx: number;
  /** Whether a limit held exactly; null where the drill checks none. */
  limitsExact: boolean | null;
  /** Further failures the drill found (an exit code, a stack trace in an answer). */
  problems: string[];
}

/** Recovery must be within this long of the dependency returning. */
export const RECOVERY_BOUND_MS = 10_000;

export function emptyResult(name: string): DrillResult {
  return {
    name,
    accepted: 0,
    refused: {},
    delivered: null,
    duplicates: null,
    resent: null,
    lost: null,
    worstDelayMs: null,
    recoveryMs: null,
    unexpected5xx: 0,
    limitsExact: null,
    problems: [],
  };
}

/** Why a drill failed; empty when it passed. */
export function failures(result: DrillResult): string[] {
  const found = [...result.problems];
  if (result.lost) found.push(`${result.lost} lost`);
  if (result.duplicates) found.push(`${result.duplicates} duplicates`);
  if (result.unexpected5xx) found.push(`${result.unexpected5xx} unexpected 5xx`);
  if (result.recoveryMs !== null && result.recoveryMs > RECOVERY_BOUND_MS) found.push(`recovery ${result.recoveryMs} ms`);
  if (result.limitsExact === false) found.push('limit not exact');
  return found;
}
