import {
  DynamicModule,
  Global,
  INestApplication,
  Inject,
  Injectable,
  LoggerService,
  Module,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpAdapterHost } from '@nestjs/core';
import { Logger, LoggerModule, PinoLogger } from 'nestjs-pino';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { DestinationStream, stdTimeFunctions } from 'pino';
import type { Options } from 'pino-http';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { prettyDestination, ROUTE_MAPPING_CONTEXTS } from './pretty-destination';
import { REDACTED, redactUrl, serializeRequest, serializeResponse } from './redact';
import { assignRequestId } from './request-id';

export interface LoggingOptions {
  /** The app's name, on every line (`app`). */
  app: string;
  /** Where the JSON lines go; standard output by default. */
  destination?: DestinationStream;
}

/** Fields bound to every log line made inside a request or a queue job (its requestId, say). */
const logFields = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * The root logger's options: one JSON object per line, LOG_LEVEL, and the fields of the request or
 * job in progress on every line (through a mixin, so that no per-request child logger is made).
 */
export function pinoOptions(config: SesameConfig, options: LoggingOptions): Options<IncomingMessage, ServerResponse> {
  return {
    level: config.log.level,
    base: { app: options.app, pid: process.pid, hostname: hostname() },
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => logFields.getStore() ?? {},
    serializers: { req: serializeRequest, res: serializeResponse },
    // A second line of defence, should anything log these objects another way.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
  };
}

/**
 * Request logging on Node's own `request` event, so Express and Fastify alike and before any
 * middleware: every request gets its id at once (echoed in X-Request-Id and bound to every line
 * logged while it is handled), and one `request completed` line when its response is finished —
 * method, cleaned URL and headers, status, time; never a body or a secret. Health checks and
 * scrapes are not logged: they come every few seconds and would drown the rest.
 */
@Injectable()
class RequestLogging implements OnModuleInit, OnModuleDestroy {
  private readonly quiet: ReadonlySet<string>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: PinoLogger,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.logger.setContext('Http');
    this.quiet = new Set([`/${config.http.apiPrefix}/health`, `/${config.http.apiPrefix}/metrics`]);
  }

  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    server?.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const requestId = assignRequestId(request, response);
      // The rest of this request's handling, synchronous and asynchronous, sees these fields.
      logFields.enterWith({ requestId });
      const root = this.logger.logger;
      if (root.isLevelEnabled('debug')) root.debug({ method: request.method, url: redactUrl(request.url ?? '') }, 'request received');
      if (this.quiet.has((request.url ?? '').split('?')[0].replace(/\/+$/, ''))) return;
      const start = process.hrtime.bigint();
      response.once('finish', () => this.completed(requestId, request, response, start));
    });
  }

  onModuleDestroy(): void {
    this.logger.info('Shutting down: finishing the work in progress, then closing Postgres and Redis');
  }

  private completed(requestId: string, request: IncomingMessage, response: ServerResponse, start: bigint): void {
    const root = this.logger.logger;
    const level = response.statusCode >= 500 ? 'error' : 'info';
    if (!root.isLevelEnabled(level)) return;
    root[level](
      {
        requestId,
        // Node's objects: the serializers (pino-std-serializers, then serializeRequest/serializeResponse) pick what is safe.
        req: request,
        res: response,
        responseTime: Math.round(Number(process.hrtime.bigint() - start) / 1e6),
      },
      'request completed',
    );
  }
}

/** Adds fields to every log line made inside a piece of work that is not an HTTP request (a queue job, say). */
@Injectable()
export class LogContext {
  /** Runs `work` with `fields` (e.g. the job's requestId) on every line logged inside it, across awaits. */
  run<T>(fields: Record<string, unknown>, work: () => T): T {
    return logFields.run({ ...logFields.getStore(), ...fields }, work);
  }
}

/**
 * Structured JSON logs (nestjs-pino, pino): one line per request from RequestLogging, and every Nest `Logger` of the
 * app routed through pino once main.ts calls useAppLogger(). Lines made while handling a request
 * carry its `requestId`.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(config: SesameConfig, options: LoggingOptions): DynamicModule {
    const pinoHttp = pinoOptions(config, options);
    const destination = options.destination ?? (config.log.format === 'pretty' ? prettyDestination() : undefined);
    return {
      module: LoggingModule,
      // nestjs-pino makes the root logger and routes Nest's logging through it; its per-request
      // middleware is not used (forRoutes: none), RequestLogging does that job more cheaply.
      imports: [LoggerModule.forRoot({ pinoHttp: destination ? [pinoHttp, destination] : pinoHttp, forRoutes: [] })],
      providers: [RequestLogging, LogContext],
      exports: [LoggerModule, LogContext],
    };
  }
}

/** The app's pino logger for Nest, except that Nest's route-mapping lines at start-up are debug, not info. */
export class AppLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && ROUTE_MAPPING_CONTEXTS.has(context)) this.inner.debug(message, ...optionalParams);
    else this.inner.log(message, ...optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.error(message, ...optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.warn(message, ...optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.debug(message, ...optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.verbose(message, ...optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.fatal(message, ...optionalParams);
  }
}

/** Routes Nest's own logging (and every `new Logger(...)`) through pino; call it right after creating the app with `bufferLogs: true`. */
export function useAppLogger(app: INestApplication): void {
  app.useLogger(new AppLogger(app.get(Logger)));
  app.flushLogs();
}
