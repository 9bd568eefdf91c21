import { CanActivate, ExecutionContext, Inject, Injectable, OnModuleInit, Optional, Type } from '@nestjs/common';
import { PATH_METADATA, VERSION_METADATA } from '@nestjs/common/constants';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { Handler, RouteMemo } from '../http/route-memo';
import { rawRequest } from '../logging/request-id';
import { SesameMetrics } from './sesame-metrics';

const ROUTE = Symbol.for('sesame.metricsRoute');

type TaggedRequest = IncomingMessage & { [ROUTE]?: string };

/** Names the route of a request for the latency histogram (for handlers outside Nest's router, such as the queue dashboard). */
export function setMetricsRoute(request: unknown, route: string): void {
  (rawRequest(request) as TaggedRequest)[ROUTE] = route;
}

/**
 * Labels each request with its route as Nest knows it (global prefix, version, controller and
 * handler paths: `/api/v2/organization/:id`, never the raw URL). Register it as the first
 * APP_GUARD so that requests refused by a later guard (a 429, a 401) are labelled too.
 */
@Injectable()
export class HttpMetricsGuard implements CanActivate {
  private readonly routes = new RouteMemo((handler, controller) => this.routeOf(handler, controller));

  constructor(@Inject(SESAME_CONFIG) private readonly config: SesameConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http') setMetricsRoute(context.switchToHttp().getRequest(), this.routes.of(context));
    return true;
  }

  private routeOf(handler: Handler, controller: Type): string {
    const version = Reflect.getMetadata(VERSION_METADATA, handler) ?? Reflect.getMetadata(VERSION_METADATA, controller);
    const segments = [
      this.config.http.apiPrefix,
      typeof version === 'string' ? `v${version}` : '',
      firstPath(Reflect.getMetadata(PATH_METADATA, controller)),
      firstPath(Reflect.getMetadata(PATH_METADATA, handler)),
    ];
    return `/${segments
      .flatMap((segment) => segment.split('/'))
      .filter(Boolean)
      .join('/')}`;
  }
}

function firstPath(path: unknown): string {
  const first = Array.isArray(path) ? path[0] : path;
  return typeof first === 'string' ? first : '';
}

/**
 * Times every request from the moment Node parses it to the end of the response (Node's own
 * `request` event, so Express and Fastify alike, and including requests a guard refuses).
 */
@Injectable()
export class HttpMetricsRecorder implements OnModuleInit {
  constructor(
    private readonly metrics: SesameMetrics,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    server?.prependListener('request', (request: TaggedRequest, response: ServerResponse) => {
      const start = process.hrtime.bigint();
      let recorded = false;
      const record = () => {
        if (recorded) return;
        recorded = true;
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        this.metrics.httpRequestDuration.observe(
          { method: request.method ?? 'UNKNOWN', route: request[ROUTE] ?? 'unmatched', status_code: String(response.statusCode) },
          seconds,
        );
      };
      response.once('finish', record);
      response.once('close', record);
    });
  }
}
