import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp, loadConfig, useAppLogger } from '@sesame/common';
import { MailWorkerModule } from './mail-worker.module';

/**
 * Logs are JSON lines on standard output (buffered until pino takes over). On SIGTERM the app stops
 * accepting connections, finishes the requests (and, in the worker, the mail job) in progress,
 * closes Postgres and Redis and exits 0.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // No gateway sends the worker requests: on SIGTERM it stops taking jobs at once, without a drain.
  const app = await createHttpApp(MailWorkerModule.forRoot(config), config, { bufferLogs: true }, { drainMs: 0 });
  useAppLogger(app);
  await app.listen(config.http.ports.mailWorker, config.http.host);
  new Logger('Main').log(`Listening on http://${config.http.host}:${config.http.ports.mailWorker}`);
}

void bootstrap();
