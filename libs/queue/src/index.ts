export * from './mail-queue';
export * from './mail-queue.module';
export * from './mail-producer';
export * from './maintenance-queue';
export * from './maintenance-queue.module';
export * from './job-payload';
export * from './webhook-queue';
export * from './webhook-queue.module';
