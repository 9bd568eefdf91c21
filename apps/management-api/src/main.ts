import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp, loadConfig, useAppLogger } from '@sesame/common';
import { ManagementApiModule } from './management-api.module';
import { setupManagementOpenApi } from './openapi';

/**
 * Logs are JSON lines on standard output (buffered until pino takes over). On SIGTERM the app stops
 * accepting connections, finishes the requests (and, in the worker, the mail job) in progress,
 * closes Postgres and Redis and exits 0.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(ManagementApiModule.forRoot(config), config, { bufferLogs: true });
  useAppLogger(app);
  setupManagementOpenApi(app, config);
  await app.listen(config.http.ports.management, config.http.host);
  new Logger('Main').log(`Listening on http://${config.http.host}:${config.http.ports.management}`);
}

void bootstrap();
