import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { dataSourceOptions } from './data-source';

/** The apps' Postgres connection, configured from the validated configuration. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [SESAME_CONFIG],
      useFactory: (config: SesameConfig) => ({
        ...dataSourceOptions({
          url: config.database.url,
          poolSize: config.database.poolSize,
          statementTimeoutMs: config.database.statementTimeoutMs,
        }),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
})
export class DatabaseModule {}
