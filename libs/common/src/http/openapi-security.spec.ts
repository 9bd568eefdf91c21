import type { OpenAPIObject } from '@nestjs/swagger';
import { documentPublicOperations } from './openapi-security';

function documentWith(operations: Record<string, Record<string, unknown>>): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/x': operations } } as unknown as OpenAPIObject;
}

describe('documentPublicOperations', () => {
  it('gives operations marked @ApiPublic() an empty security requirement and leaves the others as they are', () => {
    const document = documentPublicOperations(
      documentWith({
        get: { responses: {}, 'x-sesame-public': true },
        post: { responses: {}, security: [{ client: [] }] },
        delete: { responses: {} },
      }),
    );
    expect(document.paths['/x']).toEqual({
      get: { responses: {}, security: [] },
      post: { responses: {}, security: [{ client: [] }] },
      delete: { responses: {} },
    });
  });

  it('refuses an operation both public and secured', () => {
    expect(() =>
      documentPublicOperations(documentWith({ get: { responses: {}, security: [{ session: [] }], 'x-sesame-public': true } })),
    ).toThrow('GET /x is marked @ApiPublic() but requires [{"session":[]}]');
  });
});
