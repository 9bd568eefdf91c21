import { Controller, DynamicModule, Get, Global, Header, Module, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { HttpMetricsGuard, HttpMetricsRecorder } from './http-metrics';
import { METRICS_OPTIONS, MetricsOptions, SesameMetrics } from './sesame-metrics';

export interface MetricsModuleOptions extends MetricsOptions {
  /**
   * Decorators for the GET /api/metrics controller, e.g. `[Public(), SkipGlobalLimit()]`, so the
   * app's guards let scrapes through (this library cannot know those guards).
   */
  endpointDecorators?: ClassDecorator[];
}

/** GET /<API_PREFIX>/metrics: the Prometheus exposition (not versioned; the gateway does not expose it). */
function metricsController(decorators: ClassDecorator[]): Type<unknown> {
  @ApiExcludeController()
  @Controller('metrics')
  class MetricsController {
    constructor(private readonly metrics: SesameMetrics) {}

    @Get()
    @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
    @Header('Cache-Control', 'no-store')
    scrape(): Promise<string> {
      return this.metrics.scrape();
    }
  }
  for (const decorate of decorators) decorate(MetricsController);
  return MetricsController;
}

/**
 * Prometheus metrics of one app (prom-client): SesameMetrics (global, for counters anywhere),
 * the HTTP latency histogram and GET /api/metrics. Register HttpMetricsGuard as the app's first
 * APP_GUARD so routes are labelled before any other guard can refuse a request.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsModuleOptions): DynamicModule {
    return {
      module: MetricsModule,
      controllers: [metricsController(options.endpointDecorators ?? [])],
      providers: [{ provide: METRICS_OPTIONS, useValue: { app: options.app } }, SesameMetrics, HttpMetricsGuard, HttpMetricsRecorder],
      exports: [SesameMetrics, HttpMetricsGuard],
    };
  }
}
