import { DrillResult, failures } from './result';

const COLUMNS: [string, (result: DrillResult) => string][] = [
  ['drill', (r) => r.name],
  ['accepted', (r) => String(r.accepted)],
  ['refused', (r) => refusedText(r.refused)],
  ['delivered', (r) => optional(r.delivered)],
  ['dupl.', (r) => optional(r.duplicates) + (r.resent ? ` (+${r.resent} resent)` : '')],
  ['lost', (r) => optional(r.lost)],
  ['worst delay', (r) => seconds(r.worstDelayMs)],
  ['recovery', (r) => seconds(r.recoveryMs)],
  ['5xx', (r) => String(r.unexpected5xx)],
  ['limits', (r) => (r.limitsExact === null ? '–' : r.limitsExact ? 'exact' : 'NOT exact')],
  ['result', (r) => (failures(r).length ? 'FAIL' : 'PASS')],
];

const optional = (value: number | null) => (value === null ? '–' : String(value));
const seconds = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);

function refusedText(refused: Record<string, number>): string {
  const entries = Object.entries(refused).sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? entries.map(([status, count]) => `${status}×${count}`).join(' ') : '0';
}

/** The drills' one table (Markdown, so that docs/reliability.md can record it as printed), then why each failure failed. */
export function formatTable(results: DrillResult[]): string {
  const rows = results.map((result) => COLUMNS.map(([, cell]) => cell(result)));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [line(COLUMNS.map(([title]) => title)), line(COLUMNS.map(() => '---')), ...rows.map(line)];
  for (const result of results) for (const reason of failures(result)) lines.push(`FAIL ${result.name}: ${reason}`);
  return `${lines.join('\n')}\n`;
}
