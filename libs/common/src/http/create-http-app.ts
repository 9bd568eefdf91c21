import { DynamicModule, INestApplication, NestApplicationOptions, Type, VersioningType } from '@nestjs/common';
import { AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { SesameConfig } from '../config/sesame-config';
import { createValidationPipe } from './validation';

type EntryModule = Type<unknown> | DynamicModule;

/**
 * Creates a Nest HTTP app on the platform the configuration selects (Express by default,
 * Fastify with HTTP_PLATFORM=fastify). Controllers, guards and filters use only Nest's
 * abstractions, so both platforms behave the same.
 */
export async function createHttpApp(module: EntryModule, config: SesameConfig, options: NestApplicationOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create(module, createHttpAdapter(config), { ...options, ...platformOptions(config) });
  configureHttpApp(app, config);
  return app;
}

export function createHttpAdapter(config: SesameConfig): AbstractHttpAdapter {
  if (config.http.platform === 'express') return new ExpressAdapter();
  return new FastifyAdapter({
    // Fastify also accepts a hop count, although its typings omit it.
    trustProxy: config.http.trustProxy as boolean | string[],
    bodyLimit: config.http.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
  });
}

/** Express's body parsers are registered by configureHttpApp, with the configured size limit. */
export function platformOptions(config: SesameConfig): NestApplicationOptions {
  return config.http.platform === 'express' ? { bodyParser: false } : {};
}

/** Everything after creation, shared by the apps and the tests. */
export function configureHttpApp(app: INestApplication, config: SesameConfig): void {
  if (config.http.platform === 'express') {
    const express = app as NestExpressApplication;
    express.set('trust proxy', config.http.trustProxy);
    express.disable('x-powered-by');
    express.useBodyParser('json', { limit: config.http.bodyLimitBytes });
    express.useBodyParser('urlencoded', { limit: config.http.bodyLimitBytes, extended: false });
  }
  app.setGlobalPrefix(config.http.apiPrefix);
  app.enableVersioning({ type: VersioningType.URI });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
}
