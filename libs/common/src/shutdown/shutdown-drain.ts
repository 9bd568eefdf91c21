import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The drain between a shutdown signal (SIGTERM) and the HTTP server closing. A gateway keeps sending
 * an instance requests for a moment after it starts to stop (nginx until a connection to it fails,
 * Kubernetes until its endpoint is removed); during the drain the instance still answers them, asks
 * for every connection to be closed after its answer (`Connection: close`, so that no idle
 * keep-alive connection is left for the close to cut while a request is on its way), reports itself
 * unready on /api/health, and ends held waits at once so that their clients ask again elsewhere.
 */
@Injectable()
export class ShutdownDrain {
  private started = false;
  private readonly listeners = new Set<() => void>();

  get draining(): boolean {
    return this.started;
  }

  /** Calls `listener` when the drain starts (at once if it has); returns what removes it. */
  onStart(listener: () => void): () => void {
    if (this.started) listener();
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }
}

@Global()
@Module({ providers: [ShutdownDrain], exports: [ShutdownDrain] })
export class ShutdownModule {}
