export * from './entities';
export * from './data-source';
export * from './database.module';
export * from './repositories';
