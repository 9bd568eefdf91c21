import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SqlLogger } from './sql-logger';

export interface DatabaseSettings {
  url: string;
  poolSize?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
}

/** TypeORM options shared by the apps, the CLI and the migration runner. Schema changes go through migrations only. */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    // gen_random_uuid() is built into Postgres 13+: no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    logger: new SqlLogger(),
    extra: {
      max: settings.poolSize ?? 10,
      statement_timeout: settings.statementTimeoutMs ?? 10_000,
      application_name: settings.applicationName ?? 'sesame',
    },
  };
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}

/** Applies pending migrations; returns their names. */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = await createDataSource({ url, poolSize: 1, applicationName: 'sesame-migrate' }).initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
