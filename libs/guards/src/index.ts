export * from './api-key/principal';
export * from './api-key/api-key-format';
export * from './api-key/api-key-verifier';
export * from './api-key/api-key.guard';
export * from './api-key/api-key-auth.module';
export * from './client/client-principal';
