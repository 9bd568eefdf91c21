import { DynamicModule, INestApplication, Logger, NestApplicationOptions, Type, VersioningType } from '@nestjs/common';
import { AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SesameConfig } from '../config/sesame-config';
import { requestIdOf } from '../logging/request-id';
import { ShutdownDrain } from '../shutdown/shutdown-drain';
import { createValidationPipe } from './validation';

type EntryModule = Type<unknown> | DynamicModule;

/**
 * Creates a Nest HTTP app on the platform the configuration selects (Express by default,
 * Fastify with HTTP_PLATFORM=fastify). Controllers, guards and filters use only Nest's
 * abstractions, so both platforms behave the same. On SIGTERM or SIGINT the app drains for
 * `drainMs` (SHUTDOWN_DRAIN_SECONDS unless told otherwise: see ShutdownDrain), closes everything
 * and exits 0.
 */
export async function createHttpApp(
  module: EntryModule,
  config: SesameConfig,
  options: NestApplicationOptions = {},
  shutdown: { drainMs: number } = { drainMs: config.http.shutdownDrainSeconds * 1000 },
): Promise<INestApplication> {
  const app = await NestFactory.create(module, createHttpAdapter(config), { ...options, ...platformOptions(config) });
  configureHttpApp(app, config);
  closeOnShutdownSignals(app, shutdown.drainMs);
  return app;
}

/** See closeOnShutdownSignals. */
const LAST_CONNECTIONS_GRACE_MS = 1000;

function closeOnShutdownSignals(app: INestApplication, drainMs: number): void {
  const drain = app.get(ShutdownDrain);
  const server = app.getHttpServer() as Server;
  // On Node's own request event, so that every answer has it, whatever answers it.
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (drain.draining) response.setHeader('Connection', 'close');
  });
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    drain.start();
    if (drainMs > 0) {
      new Logger('Shutdown').log(`${signal}: answering for ${drainMs} ms more, then closing`);
      await sleep(drainMs);
      // Stop taking connections, then give the ones just accepted time to deliver their request:
      // closing the server ends every connection without a request in progress, and a connection
      // whose request is still on its way looks like one (the gateway would get a reset).
      net.Server.prototype.close.call(server);
      await sleep(LAST_CONNECTIONS_GRACE_MS);
    }
    await app.close();
  };
  // A second signal during the drain is not caught: it stops the process at once.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () =>
      shutDown(signal).then(
        () => process.exit(0),
        (error: Error) => {
          new Logger('Shutdown').error(`Shutdown failed: ${error.message}`);
          process.exit(1);
        },
      ),
    );
  }
}

export function createHttpAdapter(config: SesameConfig): AbstractHttpAdapter {
  if (config.http.platform === 'express') return new ExpressAdapter();
  return new FastifyAdapter({
    // Fastify also accepts a hop count, although its typings omit it.
    trustProxy: config.http.trustProxy as boolean | string[],
    bodyLimit: config.http.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify's request id is the one LoggingModule gave the request on arrival (X-Request-Id), so logs agree.
    genReqId: (request: unknown) => requestIdOf(request) ?? randomUUID(),
  });
}

/** Express's body parsers are registered by configureHttpApp, with the configured size limit. */
export function platformOptions(config: SesameConfig): NestApplicationOptions {
  return config.http.platform === 'express' ? { bodyParser: false } : {};
}

/** Everything after creation, shared by the apps and the tests. */
export function configureHttpApp(app: INestApplication, config: SesameConfig): void {
  if (config.http.platform === 'express') {
    const express = app as NestExpressApplication;
    express.set('trust proxy', config.http.trustProxy);
    express.disable('x-powered-by');
    // API answers are not cached (no-store), so hashing every body for an ETag is wasted work.
    express.set('etag', false);
    express.useBodyParser('json', { limit: config.http.bodyLimitBytes });
    express.useBodyParser('urlencoded', { limit: config.http.bodyLimitBytes, extended: false });
  } else {
    // Express's JSON parser is strict (objects and arrays only) and reads an empty body as {};
    // Fastify's accepts any JSON value and refuses an empty body. Parse the same way on both.
    (app as NestFastifyApplication).useBodyParser('application/json', { bodyLimit: config.http.bodyLimitBytes }, (_request, body, done) => {
      try {
        done(null, parseStrictJson(body.toString('utf8')));
      } catch (error) {
        done(Object.assign(error as Error, { statusCode: 400, type: 'entity.parse.failed' }), undefined);
      }
    });
  }
  const hsts = strictTransportSecurity(config);
  if (hsts) {
    // On Node's own request event: every answer, whatever answers it (Nest, a 404, the queue dashboard).
    (app.getHttpServer() as Server).prependListener('request', (_request: IncomingMessage, response: ServerResponse) =>
      response.setHeader('Strict-Transport-Security', hsts),
    );
  }
  app.setGlobalPrefix(config.http.apiPrefix);
  app.enableVersioning({ type: VersioningType.URI });
  app.useGlobalPipes(createValidationPipe());
}

/**
 * The Strict-Transport-Security header (RFC 6797) when clients reach Sesame over HTTPS (PUBLIC_BASE_URL
 * is https; TLS usually ends at the gateway in front), or null: HSTS_MAX_AGE_SECONDS=0 turns it off,
 * and browsers ignore it on plain HTTP anyway.
 */
export function strictTransportSecurity(config: SesameConfig): string | null {
  if (config.http.hstsMaxAgeSeconds === 0 || !config.http.publicBaseUrl.startsWith('https:')) return null;
  return `max-age=${config.http.hstsMaxAgeSeconds}`;
}

/** JSON.parse limited to objects and arrays, as Express's strict body parser, which also reads an empty body as `{}`. */
export function parseStrictJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') throw new SyntaxError('The request body must be a JSON object or array');
  return JSON.parse(text);
}
