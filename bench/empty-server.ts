/**
 * The framework's ceiling: a Nest app with one empty route on the platform Sesame runs on
 * (HTTP_PLATFORM: Express or Fastify), nothing else — no guards, interceptors, database or Redis.
 * Sesame/empty says how much of the framework's own throughput a path keeps.
 *
 * GET /api/empty   answers {}
 *
 * Environment: EMPTY_PORT, HOST, HTTP_PLATFORM.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

@Controller('api')
class EmptyController {
  @Get('empty')
  empty(): Record<string, never> {
    return {};
  }
}

@Module({ controllers: [EmptyController] })
class EmptyModule {}

async function main(): Promise<void> {
  const fastify = process.env.HTTP_PLATFORM === 'fastify';
  const app = fastify
    ? await NestFactory.create(EmptyModule, new FastifyAdapter(), { logger: ['error'] })
    : await NestFactory.create(EmptyModule, { logger: ['error'] });
  const port = Number(process.env.EMPTY_PORT ?? 3020);
  await app.listen(port, process.env.HOST ?? '127.0.0.1');
  process.stdout.write(`empty ${fastify ? 'fastify' : 'express'} route listening on ${port}\n`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
