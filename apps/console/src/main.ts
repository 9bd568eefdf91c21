import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp, loadConfig, useAppLogger } from '@sesame/common';
import { readConsoleCredentials } from './console-credentials';
import { ConsoleModule } from './console.module';
import { setupConsoleApp } from './setup';

/** The console's server: JSON logs, graceful shutdown on SIGTERM, like the other apps. */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const credentials = readConsoleCredentials(config);
  const app = await createHttpApp(ConsoleModule.forRoot(config, credentials), config, { bufferLogs: true });
  useAppLogger(app);
  setupConsoleApp(app, config);
  await app.listen(config.http.ports.console, config.http.host);
  new Logger('Main').log(`Listening on http://${config.http.host}:${config.http.ports.console} (console at ${config.console.publicUrl})`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
