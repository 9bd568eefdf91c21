/** Injection token of an app's shared ioredis client (RedisModule). */
export const REDIS = Symbol('REDIS');
