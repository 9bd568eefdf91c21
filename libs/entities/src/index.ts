export * from './entities';
export * from './data-source';
export * from './database.module';
export * from './prepared-query';
export * from './keyset-page';
export * from './batch-delete';
export * from './repositories';
