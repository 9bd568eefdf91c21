import { DynamicModule, INestApplication } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { Clock, configureHttpApp, createHttpAdapter, platformOptions, SesameConfig } from '@sesame/common';
import { ManagementApiModule } from '../../apps/management-api/src/management-api.module';
import { setupManagementOpenApi } from '../../apps/management-api/src/openapi';
import { testConfig } from './config';

export interface RunningApp {
  app: INestApplication;
  config: SesameConfig;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Further provider overrides. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** Starts an app the way main.ts does, on a random loopback port, with optional overrides for tests. */
export async function startApp(
  module: (config: SesameConfig) => DynamicModule,
  options: StartOptions & { setup?: (app: INestApplication, config: SesameConfig) => void } = {},
): Promise<RunningApp> {
  const config = testConfig(options.env);
  let builder = Test.createTestingModule({ imports: [module(config)] });
  if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(createHttpAdapter(config), { logger: false, ...platformOptions(config) });
  configureHttpApp(app, config);
  options.setup?.(app, config);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, config, url, close: () => app.close() };
}

export function startManagementApi(options: StartOptions = {}): Promise<RunningApp> {
  return startApp((config) => ManagementApiModule.forRoot(config), { ...options, setup: setupManagementOpenApi });
}
