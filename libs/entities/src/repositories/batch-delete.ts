import { DataSource } from 'typeorm';

/** Runs a DELETE (its own statement and transaction) and returns how many rows it removed. */
export async function deleteRows(dataSource: DataSource, text: string, values: unknown[]): Promise<number> {
  // TypeORM answers a DELETE with [rows, affected].
  const [, affected] = (await dataSource.query(text, values)) as [unknown[], number];
  return affected;
}
