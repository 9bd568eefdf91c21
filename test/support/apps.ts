import { DynamicModule, INestApplication } from '@nestjs/common';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { Clock, configureHttpApp, createHttpAdapter, platformOptions, SesameConfig } from '@sesame/common';
import { AuthApiModule } from '../../apps/auth-api/src/auth-api.module';
import { setupAuthOpenApi } from '../../apps/auth-api/src/openapi';
import { MailWorkerModule } from '../../apps/mail-worker/src/mail-worker.module';
import { ManagementApiModule } from '../../apps/management-api/src/management-api.module';
import { setupManagementOpenApi } from '../../apps/management-api/src/openapi';
import { testConfig } from './config';

export interface RunningApp {
  app: INestApplication;
  config: SesameConfig;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  /** On Fastify: every route registered, as "METHOD /path" (Express apps are read from their router instead). */
  fastifyRoutes: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Port to listen on (default: a random free port). */
  port?: number;
  /** The host of PUBLIC_BASE_URL (default 127.0.0.1): `localhost` where passkeys must work (WebAuthn takes no IP address). */
  publicHost?: string;
  /** Further provider overrides. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** Starts an app the way main.ts does, on a random loopback port, with optional overrides for tests. */
export async function startApp(
  module: (config: SesameConfig) => DynamicModule,
  options: StartOptions & { setup?: (app: INestApplication, config: SesameConfig) => void } = {},
): Promise<RunningApp> {
  const config = testConfig(options.env);
  let builder = Test.createTestingModule({ imports: [module(config)] });
  if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(createHttpAdapter(config), { logger: false, ...platformOptions(config) });
  const fastifyRoutes = config.http.platform === 'fastify' ? recordFastifyRoutes(app) : [];
  configureHttpApp(app, config);
  options.setup?.(app, config);
  try {
    await app.listen(options.port ?? 0, '127.0.0.1');
  } catch (error) {
    await app.close();
    throw error;
  }
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, config, url, fastifyRoutes, close: () => app.close() };
}

export function startManagementApi(options: StartOptions = {}): Promise<RunningApp> {
  return startApp((config) => ManagementApiModule.forRoot(config), { ...options, setup: setupManagementOpenApi });
}

export function startAuthApi(options: StartOptions = {}): Promise<RunningApp> {
  return startApp((config) => AuthApiModule.forRoot(config), { ...options, setup: setupAuthOpenApi });
}

export function startMailWorker(options: StartOptions = {}): Promise<RunningApp> {
  return startApp((config) => MailWorkerModule.forRoot(config), options);
}

export interface Stack {
  management: RunningApp;
  auth: RunningApp;
  worker: RunningApp;
  close(): Promise<void>;
}

/**
 * The three apps of a login, in process, sharing this file's database and Redis prefix. The
 * public base URL of all three is the auth API under test (so e-mailed links, the issuer and
 * autologin continuations point at it), and the worker sends to `smtpUrl`.
 */
export async function startStack(smtpUrl: string, options: StartOptions = {}): Promise<Stack> {
  const { auth, env } = await startPublicAuthApi({ ...options, env: { SMTP_URL: smtpUrl, MAIL_RETRY_DELAY_MS: '50', ...options.env } });
  const management = await startManagementApi({ ...options, env });
  const worker = await startMailWorker({ ...options, env });
  return {
    management,
    auth,
    worker,
    close: async () => {
      await worker.close();
      await auth.close();
      await management.close();
    },
  };
}

/** The auth API on a port picked beforehand, because its PUBLIC_BASE_URL must name it. */
export function startPublicAuthApi(options: StartOptions): Promise<{ auth: RunningApp; env: Record<string, string> }> {
  return onFreePort(async (port) => {
    const env = { PUBLIC_BASE_URL: `http://${options.publicHost ?? '127.0.0.1'}:${port}/api`, ...options.env };
    return { auth: await startAuthApi({ ...options, env, port }), env };
  });
}

/**
 * Starts something on a port picked beforehand (because a URL must name it first). Under load
 * another process may bind that port in between; on EADDRINUSE this tries again on another one.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function recordFastifyRoutes(app: INestApplication): string[] {
  const routes: string[] = [];
  const fastify = app.getHttpAdapter().getInstance() as {
    addHook(name: 'onRoute', hook: (route: { method: string | string[]; url: string }) => void): void;
  };
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  return routes;
}

/**
 * Every route the running app serves, as "METHOD /path/:param": read from the Express router, or
 * as Fastify registered them. Left out: middleware Nest mounts as catch-alls (`/api{/*splat}`),
 * and the files and API of Swagger UI (`/api/vN/docs`) and of the queue dashboard (`/api/v2/queues`).
 */
export function registeredRoutes(app: RunningApp): string[] {
  const served =
    app.config.http.platform === 'fastify'
      ? [...new Set(app.fastifyRoutes)]
      : expressRoutes(app).filter((route) => !/\{\/\*\w+\}$/.test(route));
  return served.filter((route) => !/^\w+ \/api\/v\d\/(docs|queues)(\/|$)/.test(route));
}

function expressRoutes(app: RunningApp): string[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  const instance = app.app.getHttpAdapter().getInstance() as { router?: { stack: Layer[] }; _router?: { stack: Layer[] } };
  return ((instance.router ?? instance._router)?.stack ?? [])
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${layer.route!.path}`),
    );
}
