import { Injectable, Logger } from '@nestjs/common';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/** The built single-page app (apps/console/web, `vite build`): its index page and hashed assets, read once. */
export interface WebFile {
  body: string;
  contentType: string;
}

/** What the build emits: text only (the icon is inline, no fonts or images). */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

@Injectable()
export class ConsoleWeb {
  private readonly logger = new Logger(ConsoleWeb.name);
  private files: { index: WebFile; assets: Map<string, WebFile> } | null = null;
  private missingReported = false;

  /** index.html, or null when the app was not built (`npm run build` builds it). */
  index(): WebFile | null {
    return this.load()?.index ?? null;
  }

  /** An asset by its file name under assets/ (names are content hashes, so they never change). */
  asset(name: string): WebFile | null {
    return this.load()?.assets.get(name) ?? null;
  }

  private load() {
    if (this.files) return this.files;
    const root = this.builtDirectory();
    try {
      const index = { body: readFileSync(join(root, 'index.html'), 'utf8'), contentType: 'text/html; charset=utf-8' };
      const assets = new Map<string, WebFile>();
      for (const name of readdirSync(join(root, 'assets'))) {
        const contentType = CONTENT_TYPES[extname(name)];
        if (contentType) assets.set(name, { body: readFileSync(join(root, 'assets', name), 'utf8'), contentType });
      }
      this.files = { index, assets };
    } catch (error) {
      if (!this.missingReported)
        this.logger.error(`The console's pages are not built (${root}): run npm run build (${(error as Error).message})`);
      this.missingReported = true;
    }
    return this.files;
  }

  /** The workspace package @sesame/console-web, wherever node_modules links it from (sources, dist/, the Docker image). */
  private builtDirectory(): string {
    return join(dirname(require.resolve('@sesame/console-web/package.json')), 'dist');
  }
}
