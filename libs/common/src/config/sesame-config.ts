export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const WINDOWS = ['minute', 'hour', 'day'] as const;
export type WindowName = (typeof WINDOWS)[number];
export type WindowLimits = Record<WindowName, number>;

export type HttpPlatform = 'express' | 'fastify';

/** Roles of a tenant's members and API keys, weakest first: each role may do everything the ones before it may. */
export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** True when `role` includes everything `required` may do. */
export function roleIncludes(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** The weaker of two roles. */
export function lowerRole(a: Role, b: Role): Role {
  return roleIncludes(a, b) ? b : a;
}

/** The whole configuration, parsed and validated once from the environment. */
export interface SesameConfig {
  env: 'development' | 'production' | 'test';
  http: {
    host: string;
    apiPrefix: string;
    publicBaseUrl: string;
    platform: HttpPlatform;
    /** Express-style trust-proxy value: false (trust nobody), a hop count, or a list of addresses/subnets. */
    trustProxy: boolean | number | string[];
    bodyLimitBytes: number;
    /** Strict-Transport-Security max-age sent on every answer when PUBLIC_BASE_URL is https; 0 sends none. */
    hstsMaxAgeSeconds: number;
    /** How long an app behind the gateway keeps answering after SIGTERM before it closes (see ShutdownDrain). */
    shutdownDrainSeconds: number;
    ports: { management: number; auth: number; mailWorker: number; console: number };
  };
  console: {
    /** Where people open the console (CONSOLE_PUBLIC_URL): its origin is the console organization's whitelist domain, and invitations link to it. */
    publicUrl: string;
    /** Where the console's server reaches Sesame's public APIs (CONSOLE_SESAME_URL, by default PUBLIC_BASE_URL). */
    sesameUrl: string;
    /** The JSON file with the console's client id and secret, written by `console:setup` (CONSOLE_CREDENTIALS_FILE; the console only). */
    credentialsFile: string | null;
  };
  database: { url: string; poolSize: number; statementTimeoutMs: number };
  redis: {
    /** The one Redis, unless `sentinel` is set. */
    url: string;
    sentinel: SentinelConfig | null;
    prefix: string;
    commandTimeoutMs: number;
    /** How long a command waits for Redis to come back (a Sentinel failover) before it fails; 0: it fails at once. */
    failoverWaitMs: number;
  };
  secrets: { key: Buffer; platformApiKey: string | null };
  /** The Bull dashboard of management-api: off unless an operator turns it on. */
  queueDashboard: boolean;
  apiKeys: { cacheSeconds: number };
  /** Console sessions: a sign-in this recent for dangerous changes, and when idle or old sessions end. */
  members: { reauthSeconds: number; sessionIdleSeconds: number; sessionMaxSeconds: number };
  limits: {
    plans: Record<Plan, WindowLimits>;
    windowSeconds: WindowLimits;
    endpoints: Record<Plan, number>;
    pages: number;
    globalPerIp: number;
    /** Management API requests per minute of each console member (instead of the plan's limits). */
    memberPerMinute: number;
  };
  mail: {
    smtpUrl: string;
    from: string;
    /** Delivery attempts per e-mail, with exponential backoff starting at retryDelayMs and capped at retryMaxDelayMs. */
    attempts: number;
    retryDelayMs: number;
    retryMaxDelayMs: number;
    /** How long auth-api waits for Redis to accept a mail job before answering 503. */
    enqueueTimeoutMs: number;
    /** How often the worker looks for accepted attempts whose mail was never queued or was lost. */
    sweepIntervalSeconds: number;
  };
  /** Webhook delivery (the worker) and endpoints (the management API). */
  webhooks: {
    /** Plain http to a loopback address is accepted (tests, local development); otherwise https only, never a private address. */
    allowHttpLoopback: boolean;
    /** One delivery attempt, connection to the end of the answer. */
    timeoutMs: number;
    /** The waits between attempts; after the last, the delivery has failed. */
    retryDelaysMs: number[];
    /** How often the worker turns recorded events into deliveries; 0: this worker does not (another does). */
    dispatchIntervalMs: number;
    /** Deliveries of one tenant under way at once in one worker (of its 8). */
    tenantConcurrency: number;
    /** An endpoint whose every try has failed for this many days is disabled, its owners told. */
    disableAfterDays: number;
    /** After a rotation the previous secret also signs, for this long. */
    secretRotationOverlapSeconds: number;
  };
  /** The maintenance job of mail-worker: how often it runs, how much it deletes per statement, how long it rests between statements, and how long each kind of row is kept. */
  maintenance: {
    /** 0: the worker does not schedule the job (and removes a schedule left in Redis). */
    intervalSeconds: number;
    batchSize: number;
    /** After each full batch the job waits this share of the time the batch took (0: batches back to back). */
    batchPausePercent: number;
    /** Authorization codes: days after they expire (unused) or after their tokens can no longer be alive (used). */
    codeRetentionDays: number;
    /** Access tokens: days after they expire or are revoked. */
    accessTokenRetentionDays: number;
    /** E-mail throttle rows: days without an attempt. */
    emailThrottleRetentionDays: number;
    /** Login attempts (the console's login activity) and the failed mail jobs kept for them: days after they were made. */
    loginActivityRetentionDays: number;
    /** Audit events: days after they were recorded. */
    auditRetentionDays: number;
    /** Webhook events, with their deliveries and every attempt (longer than the retries' day: at least 2). */
    webhookRetentionDays: number;
  };
  auth: {
    codeTtlSeconds: number;
    accessTokenTtlSeconds: number;
    idTokenTtlSeconds: number;
    accessTokenCacheSeconds: number;
    /** How long an application looked up by client_id is reused (a rotated secret keeps working that long on other instances). */
    clientCacheSeconds: number;
    /** How long a web app's previous client secret keeps working after a rotation (0: not at all). */
    clientSecretRotationOverlapSeconds: number;
    /** Wrong login codes for one address (any attempt) within 24 hours that disable its codes until one of its links is used. */
    codeFailuresPerAddress: number;
  };
  /** format: JSON lines (production) or one readable line per entry (npm start). */
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format: 'json' | 'pretty' };
}

export const DEFAULT_PLAN_LIMITS: Record<Plan, WindowLimits> = {
  free: { minute: 1, hour: 10, day: 100 },
  basic: { minute: 5, hour: 50, day: 500 },
  pro: { minute: 10, hour: 100, day: 1000 },
  enterprise: { minute: 25, hour: 250, day: 2500 },
};

export const DEFAULT_ENDPOINT_LIMITS: Record<Plan, number> = { free: 30, basic: 60, pro: 120, enterprise: 600 };

/** Redis replicas watched by Sentinel: the apps ask the sentinels where the primary is, again after a failover. */
export interface SentinelConfig {
  nodes: { host: string; port: number }[];
  /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  name: string;
  username: string | null;
  password: string | null;
  sentinelPassword: string | null;
  tls: boolean;
}
