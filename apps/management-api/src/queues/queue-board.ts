import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { rawRequest, SESAME_CONFIG, SesameConfig, SesameMetrics, setMetricsRoute } from '@sesame/common';
import { MAIL_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasPlatformKey, refuseBoardAccess } from './board-access';

type AccessCheck = (request: IncomingMessage, response: ServerResponse) => boolean;

type NodeHandler = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** The parts of Express's app and Fastify's instance the dashboard is mounted with. */
interface ExpressApp {
  use(path: string, ...handlers: unknown[]): unknown;
}
interface FastifyScope {
  addHook(name: 'onRequest', hook: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => Promise<void>): unknown;
  register(plugin: unknown, options?: { prefix?: string }): PromiseLike<unknown>;
}

/**
 * The Bull dashboard (@bull-board) at /api/v2/queues, for operators: the mail queue's jobs,
 * failed ones with their errors, retry and clean. It is a plain Express router or Fastify plugin
 * (whichever HTTP_PLATFORM selects), mounted beside Nest's routes and guarded by the platform key
 * with its own check; without PLATFORM_API_KEY it is not mounted at all (404).
 */
@Injectable()
export class QueueBoard implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(QueueBoard.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectQueue(MAIL_QUEUE) private readonly mailQueue: Queue,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  get basePath(): string {
    return `/${this.config.http.apiPrefix}/v2/queues`;
  }

  /** Express: mounted before Nest registers its routes, so its final "not found" handler stays last. */
  async onModuleInit(): Promise<void> {
    // The queue's depth (sesame_queue_jobs) on every scrape of this app, too.
    this.metrics?.watchQueue(this.mailQueue);
    if (this.config.http.platform === 'express') await this.mount((app, allow) => this.mountOnExpress(app.getInstance<ExpressApp>(), allow));
  }

  /**
   * Fastify: mounted once Nest has registered its routes and error handling; a plugin loaded
   * earlier would take the place of Nest's error handler, and body-parsing errors would no longer
   * be answered as problem details.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.http.platform === 'fastify') await this.mount((app, allow) => this.mountOnFastify(app.getInstance<FastifyScope>(), allow));
  }

  private async mount(mountOn: (adapter: HttpAdapterHost['httpAdapter'], allow: AccessCheck) => Promise<void>): Promise<void> {
    const platformKey = this.config.secrets.platformApiKey;
    const adapter = this.adapterHost.httpAdapter;
    if (!platformKey || !adapter) return;
    const allow: AccessCheck = (request, response) => {
      setMetricsRoute(request, this.basePath);
      if (hasPlatformKey(request, platformKey)) return true;
      refuseBoardAccess(request, response);
      return false;
    };
    await mountOn(adapter, allow);
    this.logger.log(`Queue dashboard at ${this.basePath} (platform key required)`);
  }

  private async mountOnExpress(app: ExpressApp, allow: AccessCheck): Promise<void> {
    const { ExpressAdapter } = await import('@bull-board/express');
    const serverAdapter = new ExpressAdapter().setBasePath(this.basePath);
    createBullBoard({ queues: [new BullAdapter(this.mailQueue)], serverAdapter, options: { uiConfig: { boardTitle: 'Sesame queues' } } });
    const guard: NodeHandler = (request, response, next) => {
      if (allow(request, response)) next();
    };
    const board = serverAdapter.getRouter() as { disable?(setting: string): void };
    board.disable?.('x-powered-by');
    app.use(this.basePath, guard, board);
  }

  private async mountOnFastify(fastify: FastifyScope, allow: AccessCheck): Promise<void> {
    const { FastifyAdapter } = await import('@bull-board/fastify');
    const serverAdapter = new FastifyAdapter().setBasePath(this.basePath);
    createBullBoard({ queues: [new BullAdapter(this.mailQueue)], serverAdapter, options: { uiConfig: { boardTitle: 'Sesame queues' } } });
    await fastify.register(
      async (scope: FastifyScope) => {
        scope.addHook('onRequest', async (request, reply) => {
          if (!allow(rawRequest(request), reply.raw)) reply.hijack();
        });
        await scope.register(serverAdapter.registerPlugin());
      },
      { prefix: this.basePath },
    );
  }
}
