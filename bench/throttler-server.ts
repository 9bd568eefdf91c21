/**
 * The management API for the throttler benchmark, started as its own process:
 * `node dist/bench/throttler-server.js` with the usual environment and BENCH_LIMITER=on|off.
 * "on" is the app exactly as main.ts builds it; "off" replaces the two throttler guards with
 * guards that let everything through, so the only difference between the runs is the limiter.
 */
import 'reflect-metadata';
import { CanActivate } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureHttpApp, createHttpAdapter, loadConfig, platformOptions } from '@sesame/common';
import { GlobalIpThrottlerGuard, PlanThrottlerGuard } from '@sesame/throttler';
import { ManagementApiModule } from '../apps/management-api/src/management-api.module';

const passThrough: CanActivate = { canActivate: () => true };

async function main(): Promise<void> {
  const config = loadConfig();
  const limiter = process.env.BENCH_LIMITER ?? 'on';
  let builder = Test.createTestingModule({ imports: [ManagementApiModule.forRoot(config)] });
  if (limiter === 'off') {
    builder = builder
      .overrideProvider(GlobalIpThrottlerGuard)
      .useValue(passThrough)
      .overrideProvider(PlanThrottlerGuard)
      .useValue(passThrough);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(createHttpAdapter(config), { logger: ['error'], ...platformOptions(config) });
  configureHttpApp(app, config);
  await app.listen(config.http.ports.management, config.http.host);
  process.stdout.write(`listening (limiter ${limiter})\n`);
}

void main();
