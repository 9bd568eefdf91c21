import 'reflect-metadata';
import { createHttpApp, loadConfig } from '@sesame/common';
import { AuthApiModule } from './auth-api.module';
import { setupAuthOpenApi } from './openapi';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(AuthApiModule.forRoot(config), config);
  setupAuthOpenApi(app, config);
  await app.listen(config.http.ports.auth, config.http.host);
}

void bootstrap();
