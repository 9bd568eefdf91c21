export * from './entities';
export * from './data-source';
export * from './database.module';
export * from './repositories';
export * from './passkeys/user-passkeys.service';
