import type { ChangeEvent } from 'react';
import { dateRangeError } from './date-filter';

export interface DateRangeFieldsProps {
  /** Makes the inputs' ids unique on the page, e.g. `audit` → `audit-from`. */
  idPrefix: string;
  from: string;
  to: string;
  onChange: (field: 'from' | 'to') => (event: ChangeEvent<HTMLInputElement>) => void;
  /** The API's message for a field, if it refused it. */
  errorOf: (field: 'from' | 'to') => string | undefined;
}

/** The From and To date filters of a list, with a to-date before the from-date flagged next to To. */
export function DateRangeFields({ idPrefix, from, to, onChange, errorOf }: DateRangeFieldsProps) {
  const rangeError = dateRangeError(from, to);
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-from`}>From</label>
        <input id={`${idPrefix}-from`} type="date" value={from} onChange={onChange('from')} aria-describedby={`${idPrefix}-from-error`} />
        <p id={`${idPrefix}-from-error`} className="field-error">
          {errorOf('from')}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-to`}>To</label>
        <input
          id={`${idPrefix}-to`}
          type="date"
          value={to}
          onChange={onChange('to')}
          aria-describedby={`${idPrefix}-to-error`}
          aria-invalid={Boolean(rangeError)}
        />
        <p id={`${idPrefix}-to-error`} className="field-error">
          {rangeError ?? errorOf('to')}
        </p>
      </div>
    </>
  );
}
