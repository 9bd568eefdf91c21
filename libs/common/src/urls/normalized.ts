import { validationFailed } from '../problems/problem.exception';

/** The outcome of validating and normalising one input value. */
export type Normalized = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Normalises every value of a list field, reporting all bad entries at once as a
 * `validation_failed` problem (fields named `field.index`), and drops duplicates.
 */
export function normalizeAll(field: string, values: string[], normalize: (value: string) => Normalized): string[] {
  const results = values.map(normalize);
  const errors = results.flatMap((result, index) =>
    result.ok ? [] : [{ field: `${field}.${index}`, message: `${field}.${index} ${result.reason}` }],
  );
  if (errors.length > 0) throw validationFailed(errors);
  return [...new Set(results.map((result) => (result.ok ? result.value : '')))];
}
