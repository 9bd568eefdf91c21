import {
  DEFAULT_ENDPOINT_LIMITS,
  DEFAULT_PLAN_LIMITS,
  PLANS,
  Plan,
  SentinelConfig,
  SesameConfig,
  WINDOWS,
  WindowLimits,
} from './sesame-config';

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads every variable Sesame understands, applies defaults and collects every problem at once,
 * so a bad deployment fails at start-up with one message naming all the offending variables.
 */
export function parseEnvironment(env: Env): SesameConfig {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);
  const publicBaseUrl = read.url('PUBLIC_BASE_URL', 'http://localhost:3000/api').replace(/\/+$/, '');
  const sentinel = read.redisSentinel();
  const config: SesameConfig = {
    env: read.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development'),
    http: {
      host: read.string('HOST', '127.0.0.1'),
      apiPrefix: read.string('API_PREFIX', 'api').replace(/^\/+|\/+$/g, ''),
      publicBaseUrl,
      platform: read.oneOf('HTTP_PLATFORM', ['express', 'fastify'] as const, 'express'),
      trustProxy: read.trustProxy('TRUST_PROXY'),
      bodyLimitBytes: read.integer('HTTP_BODY_LIMIT_BYTES', 100 * 1024, 1024, 10 * 1024 * 1024),
      hstsMaxAgeSeconds: read.integer('HSTS_MAX_AGE_SECONDS', 365 * 24 * 3600, 0, 2 * 365 * 24 * 3600),
      shutdownDrainSeconds: read.integer('SHUTDOWN_DRAIN_SECONDS', 5, 0, 300),
      ports: {
        management: read.port('MANAGEMENT_PORT', 3001),
        auth: read.port('AUTH_PORT', 3002),
        mailWorker: read.port('MAIL_WORKER_PORT', 3003),
        console: read.port('CONSOLE_PORT', 3004),
      },
    },
    console: {
      publicUrl: read.consoleUrl('CONSOLE_PUBLIC_URL', 'http://localhost:3000/console'),
      sesameUrl: read.optionalUrl('CONSOLE_SESAME_URL')?.replace(/\/+$/, '') ?? publicBaseUrl,
      credentialsFile: read.optionalString('CONSOLE_CREDENTIALS_FILE'),
    },
    database: {
      url: read.url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
      poolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 200),
      statementTimeoutMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 100, 600_000),
    },
    redis: {
      url: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
      sentinel,
      prefix: read.pattern('REDIS_PREFIX', /^[A-Za-z0-9:_{}.-]{1,64}$/, 'sesame', 'letters, digits and :_{}.- (at most 64)'),
      commandTimeoutMs: read.integer('REDIS_COMMAND_TIMEOUT_MS', 1000, 50, 60_000),
      failoverWaitMs: read.integer('REDIS_FAILOVER_WAIT_MS', sentinel ? 5000 : 0, 0, 30_000),
    },
    secrets: {
      key: read.secretKey('SECRETS_KEY'),
      platformApiKey: read.optionalSecret('PLATFORM_API_KEY', 32),
    },
    queueDashboard: read.oneOf('QUEUE_DASHBOARD', ['off', 'on'] as const, 'off') === 'on',
    apiKeys: { cacheSeconds: read.integer('API_KEY_CACHE_SECONDS', 5, 0, 60) },
    members: {
      reauthSeconds: read.integer('MEMBER_REAUTH_SECONDS', 600, 10, 86_400),
      sessionIdleSeconds: read.integer('MEMBER_SESSION_IDLE_SECONDS', 12 * 3600, 60, 30 * 86_400),
      sessionMaxSeconds: read.integer('MEMBER_SESSION_MAX_SECONDS', 7 * 86_400, 60, 365 * 86_400),
    },
    limits: {
      plans: read.planLimits('PLAN_LIMITS'),
      windowSeconds: read.windows('RATE_LIMIT_WINDOWS'),
      endpoints: read.endpointLimits('ENDPOINT_LIMITS'),
      pages: read.integer('PAGE_RATE_LIMIT', 60, 1, 1_000_000),
      globalPerIp: read.integer('GLOBAL_RATE_LIMIT', 600, 1, 10_000_000),
      memberPerMinute: read.integer('MEMBER_RATE_LIMIT', 300, 1, 1_000_000),
    },
    mail: {
      smtpUrl: read.url('SMTP_URL', 'smtp://127.0.0.1:1025', ['smtp:', 'smtps:']),
      from: read.string('MAIL_FROM', 'Sesame <no-reply@sesame.localhost>'),
      attempts: read.integer('MAIL_ATTEMPTS', 60, 1, 1000),
      retryDelayMs: read.integer('MAIL_RETRY_DELAY_MS', 5000, 10, 3_600_000),
      retryMaxDelayMs: read.integer('MAIL_RETRY_MAX_DELAY_MS', 10_000, 10, 3_600_000),
      enqueueTimeoutMs: read.integer('MAIL_ENQUEUE_TIMEOUT_MS', 2000, 100, 60_000),
      sweepIntervalSeconds: read.integer('MAIL_SWEEP_INTERVAL_SECONDS', 30, 1, 3600),
    },
    maintenance: {
      intervalSeconds: read.integer('MAINTENANCE_INTERVAL_SECONDS', 900, 0, 86_400),
      batchSize: read.integer('MAINTENANCE_BATCH_SIZE', 1000, 1, 50_000),
      batchPausePercent: read.integer('MAINTENANCE_BATCH_PAUSE_PERCENT', 300, 0, 1000),
      codeRetentionDays: read.integer('CODE_RETENTION_DAYS', 1, 1, 3650),
      accessTokenRetentionDays: read.integer('ACCESS_TOKEN_RETENTION_DAYS', 7, 1, 3650),
      // Below a day the e-mail backoff (which remembers attempts for 24 hours) would forget too early.
      emailThrottleRetentionDays: read.integer('EMAIL_THROTTLE_RETENTION_DAYS', 1, 1, 3650),
      loginActivityRetentionDays: read.integer('LOGIN_ACTIVITY_RETENTION_DAYS', 30, 1, 3650),
      auditRetentionDays: read.integer('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
      webhookRetentionDays: read.integer('WEBHOOK_RETENTION_DAYS', 30, 2, 3650),
    },
    auth: {
      codeTtlSeconds: read.integer('CODE_TTL_SECONDS', 300, 10, 600),
      accessTokenTtlSeconds: read.integer('ACCESS_TOKEN_TTL_SECONDS', 30 * 24 * 3600, 60, 365 * 24 * 3600),
      idTokenTtlSeconds: read.integer('ID_TOKEN_TTL_SECONDS', 3600, 60, 24 * 3600),
      accessTokenCacheSeconds: read.integer('ACCESS_TOKEN_CACHE_SECONDS', 5, 0, 60),
      clientCacheSeconds: read.integer('CLIENT_CACHE_SECONDS', 5, 0, 60),
      clientSecretRotationOverlapSeconds: read.integer('CLIENT_SECRET_ROTATION_OVERLAP_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
      codeFailuresPerAddress: read.integer('LOGIN_CODE_FAILURES_PER_ADDRESS', 10, 1, 1000),
    },
    webhooks: {
      allowHttpLoopback: read.oneOf('WEBHOOK_ALLOW_HTTP_LOOPBACK', ['off', 'on'] as const, 'off') === 'on',
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      retryDelaysMs: read.durationList('WEBHOOK_RETRY_DELAYS_MS', WEBHOOK_RETRY_DELAYS_MS),
      dispatchIntervalMs: read.integer('WEBHOOK_DISPATCH_INTERVAL_MS', 1000, 0, 60_000),
      tenantConcurrency: read.integer('WEBHOOK_TENANT_CONCURRENCY', 4, 1, 64),
      disableAfterDays: read.integer('WEBHOOK_DISABLE_AFTER_DAYS', 5, 1, 365),
      secretRotationOverlapSeconds: read.integer('WEBHOOK_SECRET_ROTATION_OVERLAP_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    },
    log: {
      level: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
      format: read.oneOf('LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    },
  };

  if (problems.length > 0) throw new ConfigurationError(problems);
  return config;
}

/** After the first try: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h (about a day and a half in all), then the delivery fails. */
const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000];

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  private fail<T>(name: string, message: string, fallback: T): T {
    this.problems.push(`${name}: ${message}`);
    return fallback;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | null {
    return this.raw(name) ?? null;
  }

  pattern(name: string, pattern: RegExp, fallback: string, description: string): string {
    const value = this.raw(name) ?? fallback;
    return pattern.test(value) ? value : this.fail(name, `must be ${description}`, fallback);
  }

  /** A comma-separated list of milliseconds, each from 1 to a day. */
  durationList(name: string, fallback: number[]): number[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parts = value.split(',').map((part) => Number(part.trim()));
    if (parts.length > 20 || parts.some((part) => !Number.isInteger(part) || part < 1 || part > 86_400_000))
      return this.fail(name, 'must be up to 20 comma-separated whole numbers of milliseconds, each from 1 to 86400000', fallback);
    return parts;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name) ?? fallback;
    return (allowed as readonly string[]).includes(value)
      ? (value as T)
      : this.fail(name, `must be one of ${allowed.join(', ')}`, fallback);
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || parsed < min || parsed > max) {
      return this.fail(name, `must be an integer from ${min} to ${max}`, fallback);
    }
    return parsed;
  }

  port(name: string, fallback: number): number {
    return this.integer(name, fallback, 0, 65535);
  }

  url(name: string, fallback: string | undefined, protocols: string[] = ['http:', 'https:']): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) return this.fail(name, 'is required', '');
    try {
      const url = new URL(value);
      if (!protocols.includes(url.protocol)) {
        return this.fail(name, `must use ${protocols.map((p) => p.slice(0, -1)).join(' or ')}`, '');
      }
      return value;
    } catch {
      return this.fail(name, 'must be a valid URL', '');
    }
  }

  /** A URL when the variable is set (validated like url()), else null. */
  optionalUrl(name: string): string | null {
    return this.raw(name) === undefined ? null : this.url(name, undefined);
  }

  /** The console's public address: an http(s) URL whose path is /console (the path the gateway routes to the console), without query or fragment. */
  consoleUrl(name: string, fallback: string): string {
    const value = this.url(name, fallback).replace(/\/+$/, '');
    if (!value) return value;
    const url = new URL(value);
    if (url.pathname !== '/console' || url.search || url.hash || url.username || url.password) {
      return this.fail(name, 'must be an http(s) URL ending in /console, without query, fragment or credentials', fallback);
    }
    return value;
  }

  secretKey(name: string): Buffer {
    const value = this.raw(name);
    if (value === undefined) return this.fail(name, 'is required (32 random bytes as 64 hex characters or base64)', Buffer.alloc(0));
    const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    return key.length === 32 ? key : this.fail(name, 'must be 32 bytes, as 64 hex characters or base64', Buffer.alloc(0));
  }

  optionalSecret(name: string, minLength: number): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    return value.length >= minLength ? value : this.fail(name, `must be at least ${minLength} characters`, null);
  }

  /**
   * Redis behind Sentinel: REDIS_SENTINELS (host:port, comma-separated) with REDIS_SENTINEL_NAME,
   * and the primary's REDIS_USERNAME/REDIS_PASSWORD, the sentinels' REDIS_SENTINEL_PASSWORD and
   * REDIS_TLS. Null without REDIS_SENTINELS (then REDIS_URL names the one Redis).
   */
  redisSentinel(): SentinelConfig | null {
    const list = this.raw('REDIS_SENTINELS');
    if (list === undefined) return null;
    if (this.raw('REDIS_URL') !== undefined) return this.fail('REDIS_SENTINELS', 'and REDIS_URL are alternatives: set one', null);
    const nodes = list.split(',').map((entry) => /^\s*(\[[0-9a-fA-F:]+\]|[^\s:]+):(\d{1,5})\s*$/.exec(entry));
    if (nodes.some((node) => node === null || Number(node[2]) > 65535)) {
      return this.fail('REDIS_SENTINELS', 'must be a comma-separated list of host:port', null);
    }
    return {
      nodes: nodes.map((node) => ({ host: node![1].replace(/^\[|\]$/g, ''), port: Number(node![2]) })),
      name: this.pattern(
        'REDIS_SENTINEL_NAME',
        /^[A-Za-z0-9._-]{1,64}$/,
        'mymaster',
        'the monitored primary’s name (letters, digits and ._-)',
      ),
      username: this.optionalString('REDIS_USERNAME'),
      password: this.optionalString('REDIS_PASSWORD'),
      sentinelPassword: this.optionalString('REDIS_SENTINEL_PASSWORD'),
      tls: this.oneOf('REDIS_TLS', ['off', 'on'] as const, 'off') === 'on',
    };
  }

  trustProxy(name: string): boolean | number | string[] {
    const value = this.raw(name);
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const valid = entries.every((entry) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(entry));
    return valid ? entries : this.fail(name, 'must be false, true, a hop count, or a comma-separated list of addresses/subnets', false);
  }

  private json(name: string): unknown {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return this.fail(name, 'must be valid JSON', undefined);
    }
  }

  private positiveInteger(value: unknown): value is number {
    return typeof value === 'number' && Number.isInteger(value) && value > 0;
  }

  planLimits(name: string): Record<Plan, WindowLimits> {
    const limits = structuredClone(DEFAULT_PLAN_LIMITS);
    const overrides = this.json(name);
    if (overrides === undefined) return limits;
    if (!isRecord(overrides)) return this.fail(name, 'must be a JSON object keyed by plan', limits);
    for (const [plan, windows] of Object.entries(overrides)) {
      if (!isPlan(plan) || !isRecord(windows)) return this.fail(name, `unknown plan or bad value at "${plan}"`, limits);
      for (const [window, limit] of Object.entries(windows)) {
        if (!isWindow(window) || !this.positiveInteger(limit)) {
          return this.fail(name, `"${plan}.${window}" must be a known window with a positive integer`, limits);
        }
        limits[plan][window] = limit;
      }
    }
    return limits;
  }

  windows(name: string): WindowLimits {
    const windows: WindowLimits = { minute: 60, hour: 3600, day: 86400 };
    const overrides = this.json(name);
    if (overrides === undefined) return windows;
    if (!isRecord(overrides)) return this.fail(name, 'must be a JSON object such as {"minute":60}', windows);
    for (const [window, seconds] of Object.entries(overrides)) {
      if (!isWindow(window) || !this.positiveInteger(seconds)) {
        return this.fail(name, `"${window}" must be a known window with a positive number of seconds`, windows);
      }
      windows[window] = seconds;
    }
    return windows;
  }

  endpointLimits(name: string): Record<Plan, number> {
    const limits = { ...DEFAULT_ENDPOINT_LIMITS };
    const overrides = this.json(name);
    if (overrides === undefined) return limits;
    if (!isRecord(overrides)) return this.fail(name, 'must be a JSON object keyed by plan', limits);
    for (const [plan, limit] of Object.entries(overrides)) {
      if (!isPlan(plan) || !this.positiveInteger(limit)) {
        return this.fail(name, `"${plan}" must be a plan with a positive integer per minute`, limits);
      }
      limits[plan] = limit;
    }
    return limits;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

function isWindow(value: string): value is keyof WindowLimits {
  return (WINDOWS as readonly string[]).includes(value);
}
