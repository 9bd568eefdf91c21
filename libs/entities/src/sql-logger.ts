import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** At most this much of a failed statement is logged: enough to recognise it. */
const STATEMENT_CHARACTERS = 200;

/**
 * TypeORM's logging through the app's logger (JSON lines, redaction, request ids), never with the
 * statement's parameters: they carry e-mail addresses, token hashes and sealed link tokens.
 * Queries themselves are not logged; failures and slow statements are warnings.
 */
export class SqlLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  /** TypeORM passes the parameters as a third argument; they are left out on purpose. */
  logQueryError(error: string | Error, query: string, ..._parameters: unknown[]): void {
    const message = error instanceof Error ? error.message : error;
    this.logger.warn(`Query failed: ${message} (${statement(query)})`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query, ${time} ms (${statement(query)})`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}

function statement(query: string): string {
  const oneLine = query.replace(/\s+/g, ' ').trim();
  return oneLine.length > STATEMENT_CHARACTERS ? `${oneLine.slice(0, STATEMENT_CHARACTERS)}…` : oneLine;
}
