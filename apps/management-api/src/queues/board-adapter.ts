import { readFileSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { createBullBoard } from '@bull-board/api';

// @bull-board/api's adapter contract, as createBullBoard declares it.
type IServerAdapter = Parameters<typeof createBullBoard>[0]['serverAdapter'];
type BullBoardQueues = Parameters<IServerAdapter['setQueues']>[0];
type UIConfig = Parameters<IServerAdapter['setUIConfig']>[0];
type AppViewRoute = Parameters<IServerAdapter['setEntryRoute']>[0];
type AppControllerRoute = Parameters<IServerAdapter['setApiRoutes']>[0][number];
type ControllerHandlerReturnType = ReturnType<Parameters<IServerAdapter['setErrorHandler']>[0]>;

/** A request to the dashboard, relative to its base path, as Nest's decorators read it. */
export interface BoardRequest {
  method: string;
  /** The path below the dashboard's base path, starting with `/`. */
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** What the dashboard answers: JSON, a page, or a static file. */
export type BoardAnswer =
  { status: number; json: unknown } | { status: number; html: string } | { status: 200; file: Buffer; contentType: string };

interface CompiledRoute {
  methods: string[];
  patterns: string[][];
  handler: AppControllerRoute['handler'];
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * @bull-board's server adapter for a Nest controller: instead of mounting an Express router or a
 * Fastify plugin beside Nest (outside its guards, filters and rate limits), the board's routes are
 * collected here and answered by QueueBoardController through Nest's own request handling, the
 * same on both HTTP platforms.
 */
export class NestBoardAdapter implements IServerAdapter {
  private queues: BullBoardQueues = new Map();
  private uiConfig: UIConfig = {};
  private viewsPath = '';
  private staticRoute = '/static';
  private staticPath = '';
  private entry: AppViewRoute | null = null;
  private routes: CompiledRoute[] = [];
  private errorHandler: (error: Error) => ControllerHandlerReturnType = () => ({ status: 500, body: { error: 'Internal server error' } });

  constructor(private readonly basePath: string) {}

  setQueues(queues: BullBoardQueues): this {
    this.queues = queues;
    return this;
  }

  setViewsPath(path: string): this {
    this.viewsPath = path;
    return this;
  }

  setStaticPath(route: string, path: string): this {
    this.staticRoute = route;
    this.staticPath = resolve(path);
    return this;
  }

  setEntryRoute(route: AppViewRoute): this {
    this.entry = route;
    return this;
  }

  setErrorHandler(handler: (error: Error) => ControllerHandlerReturnType): this {
    this.errorHandler = handler;
    return this;
  }

  setApiRoutes(routes: AppControllerRoute[]): this {
    this.routes = routes.map((route) => ({
      methods: [route.method].flat(),
      patterns: [route.route].flat().map(segments),
      handler: route.handler,
    }));
    return this;
  }

  setUIConfig(config: UIConfig): this {
    this.uiConfig = config;
    return this;
  }

  async handle(request: BoardRequest): Promise<BoardAnswer | null> {
    const method = request.method.toLowerCase();
    if (method === 'get' && request.path.startsWith(`${this.staticRoute}/`))
      return this.staticFile(request.path.slice(this.staticRoute.length));
    for (const route of this.routes) {
      const params = route.methods.includes(method) ? firstMatch(route.patterns, request.path) : null;
      if (params) return this.api(route, params, request);
    }
    if (method === 'get' && this.entry && firstMatch([this.entry.route].flat().map(segments), request.path)) return this.page();
    return null;
  }

  private async api(route: CompiledRoute, params: Record<string, string>, request: BoardRequest): Promise<BoardAnswer> {
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
    );
    try {
      const answer = await route.handler({
        queues: this.queues,
        uiConfig: this.uiConfig,
        query: request.query,
        params,
        body: (request.body ?? {}) as Record<string, unknown>,
        headers,
      });
      return { status: answer.status ?? 200, json: answer.body };
    } catch (error) {
      const answer = this.errorHandler(error as Error);
      return { status: answer.status ?? 500, json: answer.body };
    }
  }

  /** The board's single page, from its index.ejs: only `<%= name %>` (escaped) and `<%- name %>` (raw) occur there. */
  private page(): BoardAnswer {
    const { name, params } = this.entry!.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
    const template = readFileSync(join(this.viewsPath, name), 'utf8');
    const values = params as Record<string, unknown>;
    const html = template.replace(/<%([=-])\s*(\w+)\s*%>/g, (_, kind: string, key: string) =>
      kind === '=' ? escapeHtml(String(values[key] ?? '')) : String(values[key] ?? ''),
    );
    if (html.includes('<%')) throw new Error(`${name} uses template features the dashboard adapter does not render`);
    return { status: 200, html };
  }

  private staticFile(relative: string): BoardAnswer | null {
    const file = resolve(this.staticPath, `.${decodeURIComponent(relative)}`);
    if (!file.startsWith(this.staticPath + sep)) return null;
    try {
      return { status: 200, file: readFileSync(file), contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
    } catch {
      return null;
    }
  }
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Express-style `:name` segments; the parameters of the first pattern that matches `path`. */
function firstMatch(patterns: string[][], path: string): Record<string, string> | null {
  const parts = segments(path);
  for (const pattern of patterns) {
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, index) => {
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = safeDecode(parts[index]);
        return true;
      }
      return segment === parts[index];
    });
    if (matches) return params;
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
