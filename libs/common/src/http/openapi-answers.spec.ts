import type { OpenAPIObject } from '@nestjs/swagger';
import { documentCommonAnswers, PROBLEM_BODY } from './openapi-answers';

class OAuthError {}
const PROBLEM = { $ref: '#/components/schemas/ProblemDetails' };

function documentWith(operation: Record<string, unknown>): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/x': { post: operation } } } as unknown as OpenAPIObject;
}

const operationOf = (document: OpenAPIObject) =>
  (document.paths['/x'] as Record<string, { responses: Record<string, { headers?: object; content?: object }> }>).post;

describe('documentCommonAnswers', () => {
  it('adds 429 and 503 with Retry-After to every operation, and 400/413/415 only with a body', () => {
    const withoutBody = operationOf(documentCommonAnswers(documentWith({ responses: { 200: { description: 'ok' } } }), PROBLEM_BODY));
    expect(Object.keys(withoutBody.responses).sort()).toEqual(['200', '429', '503']);
    expect(withoutBody.responses['429'].headers).toEqual(
      expect.objectContaining({ 'Retry-After': expect.objectContaining({ required: true }), 'RateLimit-Policy': expect.any(Object) }),
    );
    expect(withoutBody.responses['503'].headers).toEqual({ 'Retry-After': expect.objectContaining({ required: true }) });

    const withBody = operationOf(
      documentCommonAnswers(documentWith({ requestBody: { content: {} }, responses: { 200: { description: 'ok' } } }), PROBLEM_BODY),
    );
    expect(Object.keys(withBody.responses).sort()).toEqual(['200', '400', '413', '415', '429', '503']);
  });

  it('moves problems to application/problem+json and keeps a route’s own error schema beside the app’s', () => {
    const operation = operationOf(
      documentCommonAnswers(
        documentWith({
          responses: {
            404: { description: 'gone', content: { 'application/json': { schema: PROBLEM } } },
            503: { description: 'report', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        }),
        PROBLEM_BODY,
      ),
    );
    expect(operation.responses['404'].content).toEqual({ 'application/problem+json': { schema: PROBLEM } });
    expect(operation.responses['503'].content).toEqual({
      'application/problem+json': { schema: PROBLEM },
      'application/json': { schema: { type: 'object' } },
    });
  });

  it('documents a JSON error body of the app’s model, and pages for routes marked @ApiErrorPages() except refused bodies', () => {
    const json = operationOf(
      documentCommonAnswers(documentWith({ responses: { 401: { description: 'no' } } }), {
        mediaType: 'application/json',
        model: OAuthError,
      }),
    );
    expect(json.responses['401'].content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } });

    const page = operationOf(
      documentCommonAnswers(
        documentWith({ 'x-sesame-error-body': 'html', requestBody: { content: {} }, responses: { 403: { description: 'no' } } }),
        { mediaType: 'application/json', model: OAuthError },
      ),
    );
    expect(Object.keys(page.responses['403'].content!)).toEqual(['text/html']);
    expect(Object.keys(page.responses['415'].content!).sort()).toEqual(['application/json', 'text/html']);
    expect(page).not.toHaveProperty('x-sesame-error-body');
  });
});
