import { DynamicModule, Global, INestApplication, Injectable, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Logger, LoggerModule, PinoLogger } from 'nestjs-pino';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { DestinationStream, stdTimeFunctions } from 'pino';
import type { Options } from 'pino-http';
import { SesameConfig } from '../config/sesame-config';
import { REDACTED, redactUrl, serializeRequest, serializeResponse } from './redact';
import { assignRequestId } from './request-id';

export interface LoggingOptions {
  /** The app's name, on every line (`app`). */
  app: string;
  /** Where the JSON lines go; standard output by default. */
  destination?: DestinationStream;
}

/**
 * pino-http's options: one JSON object per line, LOG_LEVEL, the request id as `requestId` on every
 * line of a request, and serializers that never write bodies, credentials or secret URL parameters.
 */
export function pinoHttpOptions(config: SesameConfig, options: LoggingOptions): Options<IncomingMessage, ServerResponse> {
  const quiet = new Set([`/${config.http.apiPrefix}/health`, `/${config.http.apiPrefix}/metrics`]);
  return {
    level: config.log.level,
    base: { app: options.app, pid: process.pid, hostname: hostname() },
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    genReqId: (request, response) => assignRequestId(request, response),
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    serializers: { req: serializeRequest, res: serializeResponse },
    // A second line of defence, should anything log these objects another way.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    // Health checks and scrapes come every few seconds: their lines would drown the rest.
    autoLogging: { ignore: (request) => quiet.has((request.url ?? '').split('?')[0].replace(/\/+$/, '')) },
  };
}

/**
 * Gives every request its id the moment it arrives (before any middleware, on Express and
 * Fastify alike: Node's own `request` event), and notes arrivals and the start of a shutdown.
 */
@Injectable()
class RequestLifecycleLogging implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext('Http');
  }

  onModuleInit(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    server?.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const requestId = assignRequestId(request, response);
      if (this.logger.logger.isLevelEnabled('debug')) {
        this.logger.logger.debug({ requestId, method: request.method, url: redactUrl(request.url ?? '') }, 'request received');
      }
    });
  }

  onModuleDestroy(): void {
    this.logger.info('Shutting down: finishing the work in progress, then closing Postgres and Redis');
  }
}

/** Adds fields to every log line made inside a piece of work that is not an HTTP request (a queue job, say). */
@Injectable()
export class LogContext {
  constructor(private readonly pino: PinoLogger) {}

  /** Runs `work` with `fields` (e.g. the job's requestId) on every line logged inside it, across awaits. */
  run<T>(fields: Record<string, unknown>, work: () => T): T {
    return this.pino.runInContext(work, { bindings: fields });
  }
}

/**
 * Structured JSON logs (nestjs-pino): request logs from pino-http, and every Nest `Logger` of the
 * app routed through pino once main.ts calls useAppLogger(). Lines made while handling a request
 * carry its `requestId`.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(config: SesameConfig, options: LoggingOptions): DynamicModule {
    const pinoHttp = pinoHttpOptions(config, options);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: options.destination ? [pinoHttp, options.destination] : pinoHttp })],
      providers: [RequestLifecycleLogging, LogContext],
      exports: [LoggerModule, LogContext],
    };
  }
}

/** Routes Nest's own logging (and every `new Logger(...)`) through pino; call it right after creating the app with `bufferLogs: true`. */
export function useAppLogger(app: INestApplication): void {
  app.useLogger(app.get(Logger));
  app.flushLogs();
}
