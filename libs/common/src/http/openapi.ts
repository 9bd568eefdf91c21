import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SesameConfig } from '../config/sesame-config';
import { documentCommonAnswers, ErrorBody } from './openapi-answers';
import { documentPublicOperations } from './openapi-security';

export interface OpenApiOptions {
  title: string;
  description: string;
  /** The API version segment, `v1` or `v2`: the document is served under it. */
  version: 'v1' | 'v2';
  /** How the app's JSON routes answer errors (routes marked @ApiErrorPages() answer HTML pages). */
  errorBody: ErrorBody;
  configure?: (builder: DocumentBuilder) => DocumentBuilder;
  /** Schemas no route names (the bodies of webhook deliveries), and what the document adds of its own around them. */
  extraModels?: (new (...args: never[]) => unknown)[];
  extend?: (document: OpenAPIObject) => void;
}

/** Sesame's license (package.json), stated in every document it serves. */
export const SESAME_LICENSE = { name: 'MIT', url: 'https://opensource.org/license/mit' };

/** Serves the app's OpenAPI document, with the answers every route can give (see documentCommonAnswers), at /api/<version>/openapi.json and Swagger UI at /api/<version>/docs. */
export function setupOpenApi(app: INestApplication, config: SesameConfig, options: OpenApiOptions): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(options.version)
    .setLicense(SESAME_LICENSE.name, SESAME_LICENSE.url)
    .addServer(new URL(config.http.publicBaseUrl).pathname.replace(/\/api$/, '') || '/', 'This server');
  const document = documentPublicOperations(
    documentCommonAnswers(
      SwaggerModule.createDocument(app, (options.configure?.(base) ?? base).build(), {
        extraModels: [options.errorBody.model, ...(options.extraModels ?? [])],
      }),
      options.errorBody,
    ),
  );
  options.extend?.(document);
  const root = `${config.http.apiPrefix}/${options.version}`;
  SwaggerModule.setup(`${root}/docs`, app, document, {
    jsonDocumentUrl: `${root}/openapi.json`,
    yamlDocumentUrl: `${root}/openapi.yaml`,
    useGlobalPrefix: false,
  });
  return document;
}
