import { ConfigurationError, parseEnvironment } from './parse-environment';
import { DEFAULT_ENDPOINT_LIMITS, DEFAULT_PLAN_LIMITS } from './sesame-config';

const HEX_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const REQUIRED = { DATABASE_URL: 'postgres://sesame@db.internal:5432/sesame', SECRETS_KEY: HEX_KEY };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseEnvironment(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
  throw new Error('expected a ConfigurationError');
}

describe('parseEnvironment', () => {
  it('refuses a retention below a day, naming the variable', () => {
    expect(problemsOf({ ...REQUIRED, EMAIL_THROTTLE_RETENTION_DAYS: '0', MAINTENANCE_BATCH_SIZE: '0' })).toEqual([
      'MAINTENANCE_BATCH_SIZE: must be an integer from 1 to 50000',
      'EMAIL_THROTTLE_RETENTION_DAYS: must be an integer from 1 to 3650',
    ]);
  });

  describe('defaults', () => {
    const config = parseEnvironment(REQUIRED);

    it('fills in every optional setting', () => {
      expect(config.env).toBe('development');
      expect(config.http).toEqual({
        host: '127.0.0.1',
        apiPrefix: 'api',
        publicBaseUrl: 'http://localhost:3000/api',
        platform: 'express',
        trustProxy: false,
        bodyLimitBytes: 100 * 1024,
        hstsMaxAgeSeconds: 365 * 24 * 3600,
        shutdownDrainSeconds: 5,
        ports: { management: 3001, auth: 3002, mailWorker: 3003, console: 3004 },
      });
      expect(config.console).toEqual({
        publicUrl: 'http://localhost:3000/console',
        sesameUrl: 'http://localhost:3000/api',
        credentialsFile: null,
      });
      expect(config.database).toEqual({ url: REQUIRED.DATABASE_URL, poolSize: 10, statementTimeoutMs: 10_000 });
      expect(config.redis).toEqual({
        url: 'redis://127.0.0.1:6379',
        sentinel: null,
        prefix: 'sesame',
        commandTimeoutMs: 1000,
        failoverWaitMs: 0,
      });
      expect(config.secrets).toEqual({ key: Buffer.from(HEX_KEY, 'hex'), platformApiKey: null });
      expect(config.apiKeys).toEqual({ cacheSeconds: 5 });
      expect(config.members).toEqual({ reauthSeconds: 600, sessionIdleSeconds: 43200, sessionMaxSeconds: 604800 });
      expect(config.queueDashboard).toBe(false);
      expect(config.mail.smtpUrl).toBe('smtp://127.0.0.1:1025');
      expect(config.mail.from).toBe('Sesame <no-reply@sesame.localhost>');
      expect(config.auth).toEqual({
        codeTtlSeconds: 300,
        accessTokenTtlSeconds: 30 * 24 * 3600,
        idTokenTtlSeconds: 3600,
        accessTokenCacheSeconds: 5,
        clientCacheSeconds: 5,
        clientSecretRotationOverlapSeconds: 86400,
        codeFailuresPerAddress: 10,
      });
      expect(config.log).toEqual({ level: 'info', format: 'json' });
      expect(config.webhooks).toEqual({
        allowHttpLoopback: false,
        timeoutMs: 10_000,
        retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000],
        dispatchIntervalMs: 1000,
        tenantConcurrency: 4,
        disableAfterDays: 5,
        secretRotationOverlapSeconds: 86_400,
      });
    });

    it('reads the webhook retry schedule as milliseconds, and refuses one it cannot use', () => {
      expect(parseEnvironment({ ...REQUIRED, WEBHOOK_RETRY_DELAYS_MS: '50, 100,200' }).webhooks.retryDelaysMs).toEqual([50, 100, 200]);
      for (const value of ['0', '5,x', '1.5', String(86_400_001)])
        expect(problemsOf({ ...REQUIRED, WEBHOOK_RETRY_DELAYS_MS: value })).toEqual([
          'WEBHOOK_RETRY_DELAYS_MS: must be up to 20 comma-separated whole numbers of milliseconds, each from 1 to 86400000',
        ]);
    });

    it('keeps data for the retention periods of the design', () => {
      expect(config.maintenance).toEqual({
        intervalSeconds: 900,
        batchSize: 1000,
        batchPausePercent: 300,
        codeRetentionDays: 1,
        accessTokenRetentionDays: 7,
        emailThrottleRetentionDays: 1,
        loginActivityRetentionDays: 30,
        auditRetentionDays: 365,
        webhookRetentionDays: 30,
      });
    });

    it('MAINTENANCE_BATCH_PAUSE_PERCENT takes 0 (batches back to back) up to 1000', () => {
      expect(parseEnvironment({ ...REQUIRED, MAINTENANCE_BATCH_PAUSE_PERCENT: '0' }).maintenance.batchPausePercent).toBe(0);
      expect(parseEnvironment({ ...REQUIRED, MAINTENANCE_BATCH_PAUSE_PERCENT: '1000' }).maintenance.batchPausePercent).toBe(1000);
    });

    it('uses the plan limits of the design', () => {
      expect(config.limits).toEqual({
        plans: {
          free: { minute: 1, hour: 10, day: 100 },
          basic: { minute: 5, hour: 50, day: 500 },
          pro: { minute: 10, hour: 100, day: 1000 },
          enterprise: { minute: 25, hour: 250, day: 2500 },
        },
        windowSeconds: { minute: 60, hour: 3600, day: 86400 },
        endpoints: { free: 30, basic: 60, pro: 120, enterprise: 600 },
        pages: 60,
        globalPerIp: 600,
        memberPerMinute: 300,
      });
    });

    it('treats blank variables as unset and trims values', () => {
      const parsed = parseEnvironment({ ...REQUIRED, HOST: '   ', MANAGEMENT_PORT: ' 4001 ', LOG_LEVEL: '\tdebug\n', PLAN_LIMITS: '' });
      expect(parsed.http.host).toBe('127.0.0.1');
      expect(parsed.http.ports.management).toBe(4001);
      expect(parsed.log.level).toBe('debug');
      expect(parsed.limits.plans).toEqual(DEFAULT_PLAN_LIMITS);
    });

    it('normalises the API prefix and the public base URL', () => {
      const parsed = parseEnvironment({ ...REQUIRED, API_PREFIX: '//api/', PUBLIC_BASE_URL: 'https://id.example.com/api///' });
      expect(parsed.http.apiPrefix).toBe('api');
      expect(parsed.http.publicBaseUrl).toBe('https://id.example.com/api');
    });

    it("the console's addresses: CONSOLE_SESAME_URL follows PUBLIC_BASE_URL unless set", () => {
      const parsed = parseEnvironment({
        ...REQUIRED,
        PUBLIC_BASE_URL: 'https://id.example.com/api',
        CONSOLE_PUBLIC_URL: 'https://id.example.com/console/',
      });
      expect(parsed.console).toEqual({
        publicUrl: 'https://id.example.com/console',
        sesameUrl: 'https://id.example.com/api',
        credentialsFile: null,
      });
      const inside = parseEnvironment({
        ...REQUIRED,
        CONSOLE_SESAME_URL: 'http://gateway:3000/api/',
        CONSOLE_CREDENTIALS_FILE: '/run/console.json',
      });
      expect(inside.console).toEqual({
        publicUrl: 'http://localhost:3000/console',
        sesameUrl: 'http://gateway:3000/api',
        credentialsFile: '/run/console.json',
      });
    });

    it('reads the secrets key as hex or base64', () => {
      const key = Buffer.from(HEX_KEY, 'hex');
      expect(parseEnvironment({ ...REQUIRED, SECRETS_KEY: HEX_KEY.toUpperCase() }).secrets.key).toEqual(key);
      expect(parseEnvironment({ ...REQUIRED, SECRETS_KEY: key.toString('base64') }).secrets.key).toEqual(key);
    });

    it('accepts a platform key of at least 32 characters', () => {
      expect(parseEnvironment({ ...REQUIRED, PLATFORM_API_KEY: 'p'.repeat(32) }).secrets.platformApiKey).toBe('p'.repeat(32));
    });

    it.each([
      ['false', false],
      ['true', true],
      ['2', 2],
      ['loopback', ['loopback']],
      ['loopback, 10.0.0.0/8 ,fd00::/8', ['loopback', '10.0.0.0/8', 'fd00::/8']],
    ])('TRUST_PROXY=%j', (value, expected) => {
      expect(parseEnvironment({ ...REQUIRED, TRUST_PROXY: value }).http.trustProxy).toEqual(expected);
    });
  });

  describe('required variables', () => {
    it('names every missing variable at once', () => {
      expect(problemsOf({})).toEqual([
        'DATABASE_URL: is required',
        'SECRETS_KEY: is required (32 random bytes as 64 hex characters or base64)',
      ]);
    });

    it('the message lists every problem', () => {
      expect(() => parseEnvironment({})).toThrow(
        'Invalid configuration:\n  - DATABASE_URL: is required\n  - SECRETS_KEY: is required (32 random bytes as 64 hex characters or base64)',
      );
    });
  });

  describe('every error names its variable', () => {
    it.each([
      ['NODE_ENV', 'staging', 'must be one of development, production, test'],
      ['HTTP_PLATFORM', 'koa', 'must be one of express, fastify'],
      ['LOG_LEVEL', 'verbose', 'must be one of fatal, error, warn, info, debug, trace, silent'],
      ['MANAGEMENT_PORT', '65536', 'must be an integer from 0 to 65535'],
      ['AUTH_PORT', '-1', 'must be an integer from 0 to 65535'],
      ['MAIL_WORKER_PORT', '30a', 'must be an integer from 0 to 65535'],
      ['CONSOLE_PORT', '70000', 'must be an integer from 0 to 65535'],
      ['MEMBER_RATE_LIMIT', '0', 'must be an integer from 1 to 1000000'],
      [
        'CONSOLE_PUBLIC_URL',
        'https://id.example.com/admin',
        'must be an http(s) URL ending in /console, without query, fragment or credentials',
      ],
      [
        'CONSOLE_PUBLIC_URL',
        'https://id.example.com/console?x=1',
        'must be an http(s) URL ending in /console, without query, fragment or credentials',
      ],
      ['CONSOLE_PUBLIC_URL', 'ftp://id.example.com/console', 'must use http or https'],
      ['CONSOLE_SESAME_URL', 'gateway:3000/api', 'must use http or https'],
      ['HTTP_BODY_LIMIT_BYTES', '1e6', 'must be an integer from 1024 to 10485760'],
      ['DATABASE_POOL_SIZE', '0', 'must be an integer from 1 to 200'],
      ['DATABASE_POOL_SIZE', '10.5', 'must be an integer from 1 to 200'],
      ['DATABASE_POOL_SIZE', '0x10', 'must be an integer from 1 to 200'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', '99999999999999999999', 'must be an integer from 100 to 600000'],
      ['REDIS_COMMAND_TIMEOUT_MS', 'fast', 'must be an integer from 50 to 60000'],
      ['API_KEY_CACHE_SECONDS', '61', 'must be an integer from 0 to 60'],
      ['PAGE_RATE_LIMIT', '0', 'must be an integer from 1 to 1000000'],
      ['GLOBAL_RATE_LIMIT', '-5', 'must be an integer from 1 to 10000000'],
      ['CODE_TTL_SECONDS', '3600', 'must be an integer from 10 to 600'],
      ['ACCESS_TOKEN_TTL_SECONDS', '59', 'must be an integer from 60 to 31536000'],
      ['ID_TOKEN_TTL_SECONDS', 'NaN', 'must be an integer from 60 to 86400'],
      ['ACCESS_TOKEN_CACHE_SECONDS', 'Infinity', 'must be an integer from 0 to 60'],
      ['MAINTENANCE_BATCH_PAUSE_PERCENT', '1001', 'must be an integer from 0 to 1000'],
      ['MAINTENANCE_BATCH_PAUSE_PERCENT', '-1', 'must be an integer from 0 to 1000'],
      ['MAINTENANCE_BATCH_PAUSE_PERCENT', '50%', 'must be an integer from 0 to 1000'],
      ['DATABASE_URL', 'mysql://root@localhost/sesame', 'must use postgres or postgresql'],
      ['DATABASE_URL', 'not a url', 'must be a valid URL'],
      ['REDIS_URL', 'http://127.0.0.1:6379', 'must use redis or rediss'],
      ['REDIS_SENTINELS', '10.0.0.1', 'must be a comma-separated list of host:port'],
      ['REDIS_SENTINELS', '10.0.0.1:26379,,10.0.0.2:26379', 'must be a comma-separated list of host:port'],
      ['REDIS_SENTINELS', '10.0.0.1:99999', 'must be a comma-separated list of host:port'],
      ['REDIS_FAILOVER_WAIT_MS', '60000', 'must be an integer from 0 to 30000'],
      ['SMTP_URL', 'mailto:ops@example.com', 'must use smtp or smtps'],
      ['PUBLIC_BASE_URL', 'javascript:alert(1)', 'must use http or https'],
      ['PUBLIC_BASE_URL', '/api', 'must be a valid URL'],
      ['REDIS_PREFIX', 'sesame prefix', 'must be letters, digits and :_{}.- (at most 64)'],
      ['REDIS_PREFIX', 'p'.repeat(65), 'must be letters, digits and :_{}.- (at most 64)'],
      ['SECRETS_KEY', 'too-short', 'must be 32 bytes, as 64 hex characters or base64'],
      ['SECRETS_KEY', HEX_KEY.slice(2), 'must be 32 bytes, as 64 hex characters or base64'],
      ['SECRETS_KEY', `${HEX_KEY}00`, 'must be 32 bytes, as 64 hex characters or base64'],
      ['PLATFORM_API_KEY', 'p'.repeat(31), 'must be at least 32 characters'],
      ['TRUST_PROXY', 'everyone', 'must be false, true, a hop count, or a comma-separated list of addresses/subnets'],
      ['TRUST_PROXY', '10.0.0.0/8; rm -rf /', 'must be false, true, a hop count, or a comma-separated list of addresses/subnets'],
    ])('%s=%j', (name, value, message) => {
      expect(problemsOf({ ...REQUIRED, [name]: value })).toEqual([`${name}: ${message}`]);
    });

    it('REDIS_SENTINELS: the primary the sentinels name, with its credentials, and a failover wait of 5 s unless set', () => {
      const config = parseEnvironment({
        ...REQUIRED,
        REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.2:26380,[::1]:26381',
        REDIS_SENTINEL_NAME: 'sesame-main',
        REDIS_PASSWORD: 'primary secret',
        REDIS_SENTINEL_PASSWORD: 'sentinel secret',
        REDIS_TLS: 'on',
      });
      expect(config.redis.sentinel).toEqual({
        nodes: [
          { host: 'sentinel-a', port: 26379 },
          { host: '10.0.0.2', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        name: 'sesame-main',
        username: null,
        password: 'primary secret',
        sentinelPassword: 'sentinel secret',
        tls: true,
      });
      expect(config.redis.failoverWaitMs).toBe(5000);
      expect(parseEnvironment({ ...REQUIRED, REDIS_SENTINELS: 'a:1', REDIS_FAILOVER_WAIT_MS: '0' }).redis).toMatchObject({
        sentinel: { name: 'mymaster', tls: false },
        failoverWaitMs: 0,
      });
    });

    it('REDIS_SENTINELS and REDIS_URL are alternatives', () => {
      expect(problemsOf({ ...REQUIRED, REDIS_SENTINELS: 'a:26379', REDIS_URL: 'redis://b:6379' })).toEqual([
        'REDIS_SENTINELS: and REDIS_URL are alternatives: set one',
      ]);
    });

    it('reports all bad variables of one environment together', () => {
      const problems = problemsOf({
        NODE_ENV: 'prod',
        MANAGEMENT_PORT: 'x',
        REDIS_URL: 'ftp://x',
        PLAN_LIMITS: '{',
        RATE_LIMIT_WINDOWS: '[]',
        ENDPOINT_LIMITS: '{"gold":1}',
      });
      expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(
        [
          'DATABASE_URL',
          'ENDPOINT_LIMITS',
          'MANAGEMENT_PORT',
          'NODE_ENV',
          'PLAN_LIMITS',
          'RATE_LIMIT_WINDOWS',
          'REDIS_URL',
          'SECRETS_KEY',
        ].sort(),
      );
    });
  });

  describe('JSON variables', () => {
    it('PLAN_LIMITS overrides single windows and keeps the other defaults', () => {
      const config = parseEnvironment({ ...REQUIRED, PLAN_LIMITS: '{"basic":{"minute":7},"enterprise":{"day":99999}}' });
      expect(config.limits.plans).toEqual({
        ...DEFAULT_PLAN_LIMITS,
        basic: { minute: 7, hour: 50, day: 500 },
        enterprise: { minute: 25, hour: 250, day: 99999 },
      });
    });

    it('an override never leaks into the defaults or into another parse', () => {
      parseEnvironment({
        ...REQUIRED,
        PLAN_LIMITS: '{"free":{"minute":1000}}',
        RATE_LIMIT_WINDOWS: '{"minute":1}',
        ENDPOINT_LIMITS: '{"free":1}',
      });
      const config = parseEnvironment(REQUIRED);
      expect(DEFAULT_PLAN_LIMITS.free.minute).toBe(1);
      expect(config.limits.plans.free.minute).toBe(1);
      expect(config.limits.windowSeconds.minute).toBe(60);
      expect(config.limits.endpoints).toEqual(DEFAULT_ENDPOINT_LIMITS);
      expect(DEFAULT_ENDPOINT_LIMITS.free).toBe(30);
    });

    it('RATE_LIMIT_WINDOWS shortens windows (as tests do)', () => {
      expect(parseEnvironment({ ...REQUIRED, RATE_LIMIT_WINDOWS: '{"minute":2,"hour":4}' }).limits.windowSeconds).toEqual({
        minute: 2,
        hour: 4,
        day: 86400,
      });
    });

    it('ENDPOINT_LIMITS overrides single plans', () => {
      expect(parseEnvironment({ ...REQUIRED, ENDPOINT_LIMITS: '{"pro":500}' }).limits.endpoints).toEqual({
        ...DEFAULT_ENDPOINT_LIMITS,
        pro: 500,
      });
    });

    it.each([
      ['PLAN_LIMITS', '{basic:{minute:5}}', 'must be valid JSON'],
      ['PLAN_LIMITS', '{"basic":{"minute":5}', 'must be valid JSON'],
      ['PLAN_LIMITS', '[]', 'must be a JSON object keyed by plan'],
      ['PLAN_LIMITS', 'null', 'must be a JSON object keyed by plan'],
      ['PLAN_LIMITS', '5', 'must be a JSON object keyed by plan'],
      ['PLAN_LIMITS', '"basic"', 'must be a JSON object keyed by plan'],
      ['PLAN_LIMITS', '{"gold":{"minute":5}}', 'unknown plan or bad value at "gold"'],
      ['PLAN_LIMITS', '{"__proto__":{"minute":5}}', 'unknown plan or bad value at "__proto__"'],
      ['PLAN_LIMITS', '{"constructor":{"minute":5}}', 'unknown plan or bad value at "constructor"'],
      ['PLAN_LIMITS', '{"basic":5}', 'unknown plan or bad value at "basic"'],
      ['PLAN_LIMITS', '{"basic":[5,50,500]}', 'unknown plan or bad value at "basic"'],
      ['PLAN_LIMITS', '{"basic":{"week":5}}', '"basic.week" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":0}}', '"basic.minute" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":-5}}', '"basic.minute" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":1.5}}', '"basic.minute" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":"5"}}', '"basic.minute" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":null}}', '"basic.minute" must be a known window with a positive integer'],
      ['PLAN_LIMITS', '{"basic":{"minute":1e400}}', '"basic.minute" must be a known window with a positive integer'],
      ['RATE_LIMIT_WINDOWS', 'minute=60', 'must be valid JSON'],
      ['RATE_LIMIT_WINDOWS', '[60,3600,86400]', 'must be a JSON object such as {"minute":60}'],
      ['RATE_LIMIT_WINDOWS', '{"second":1}', '"second" must be a known window with a positive number of seconds'],
      ['RATE_LIMIT_WINDOWS', '{"minute":0}', '"minute" must be a known window with a positive number of seconds'],
      ['RATE_LIMIT_WINDOWS', '{"minute":"60"}', '"minute" must be a known window with a positive number of seconds'],
      ['ENDPOINT_LIMITS', '{', 'must be valid JSON'],
      ['ENDPOINT_LIMITS', 'true', 'must be a JSON object keyed by plan'],
      ['ENDPOINT_LIMITS', '{"gold":10}', '"gold" must be a plan with a positive integer per minute'],
      ['ENDPOINT_LIMITS', '{"pro":{"minute":10}}', '"pro" must be a plan with a positive integer per minute'],
      ['ENDPOINT_LIMITS', '{"pro":0}', '"pro" must be a plan with a positive integer per minute'],
    ])('%s=%s', (name, value, message) => {
      expect(problemsOf({ ...REQUIRED, [name]: value })).toEqual([`${name}: ${message}`]);
    });
  });
});
