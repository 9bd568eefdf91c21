export { USAGE_METRICS } from './usage-buckets';
export type { UsageMetric } from './usage-buckets';
export * from './usage-counter';
export * from './usage-history';
export * from './usage-counters.module';
