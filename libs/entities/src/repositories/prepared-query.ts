import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/** A query of a hot path, run as a named prepared statement: Postgres parses and plans it once per connection. */
export interface PreparedStatement {
  name: string;
  text: string;
}

export function prepared(name: string, text: string): PreparedStatement {
  return { name, text };
}

/**
 * Runs a prepared statement on the data source's pool, bypassing TypeORM's query building (the
 * pg driver and its type parsing are the same). For the few queries every request makes.
 */
export async function queryPrepared<Row>(dataSource: DataSource, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const result = await pool.query<Row & object>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
