export * from './mail-queue';
export * from './mail-queue.module';
export * from './mail-producer';
