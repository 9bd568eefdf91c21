import { ERROR_CODES, ErrorApi, ErrorDefinition } from './error-codes';

/** The table's sections, in order: a row goes with the first surface it names. */
const SURFACES: readonly ErrorApi[] = ['v2', 'v1', 'page', 'console'];

interface Row {
  status: number;
  codes: string[];
  where: string;
  doc: string;
}

/**
 * The code table of docs/errors.md: one row per code and place, grouped by surface (management
 * API, auth API, its pages, console); codes with the same status, place and meaning share a row.
 */
export function renderErrorTable(): string {
  const rows: Row[] = [];
  for (const [code, definition] of Object.entries(ERROR_CODES) as [string, ErrorDefinition][]) {
    const alias = definition.oauth ? ` (v1: \`${definition.oauth}\`)` : '';
    const uses = [
      { ...definition, where: definition.apis.join(', ') + alias },
      ...(definition.also ?? []).map((use) => ({ ...use, where: use.apis.join(', ') })),
    ];
    for (const use of uses) {
      const status = use.status ?? definition.status;
      const same = rows.find((row) => row.status === status && row.where === use.where && row.doc === use.doc);
      if (same) same.codes.push(code);
      else rows.push({ status, codes: [code], where: use.where, doc: use.doc });
    }
  }
  const section = (row: Row) => SURFACES.indexOf(row.where.split(/[ ,]/)[0] as ErrorApi);
  const sorted = rows.map((row, index) => ({ row, index })).sort((a, b) => section(a.row) - section(b.row) || a.index - b.index);
  return [
    '| status | code | where | meaning |',
    '|---|---|---|---|',
    ...sorted.map(({ row }) => `| ${row.status} | ${row.codes.map((code) => `\`${code}\``).join(', ')} | ${row.where} | ${row.doc} |`),
  ].join('\n');
}
