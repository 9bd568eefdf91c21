import 'reflect-metadata';
import { createHttpApp, loadConfig } from '@sesame/common';
import { MailWorkerModule } from './mail-worker.module';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(MailWorkerModule.forRoot(config), config);
  await app.listen(config.http.ports.mailWorker, config.http.host);
}

void bootstrap();
