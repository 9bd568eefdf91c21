import 'reflect-metadata';
import { createHttpApp, loadConfig } from '@sesame/common';
import { ManagementApiModule } from './management-api.module';
import { setupManagementOpenApi } from './openapi';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(ManagementApiModule.forRoot(config), config);
  setupManagementOpenApi(app, config);
  await app.listen(config.http.ports.management, config.http.host);
}

void bootstrap();
