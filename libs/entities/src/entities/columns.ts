import { ColumnOptions } from 'typeorm';

/** Millisecond precision, so keyset cursors (which carry JavaScript dates) compare exactly. */
export const TIMESTAMP: ColumnOptions = { type: 'timestamptz', precision: 3 };
export const NULLABLE_TIMESTAMP: ColumnOptions = { ...TIMESTAMP, nullable: true };
