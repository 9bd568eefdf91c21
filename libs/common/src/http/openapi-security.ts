import { ApiExtension } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

type Operation = { security?: Record<string, string[]>[]; [extension: `x-${string}`]: unknown };

const PUBLIC_EXTENSION = 'x-sesame-public';

/**
 * Marks a controller (or handler) that anyone may call, without credentials: its operations get
 * `security: []` (see documentPublicOperations). Tools read an operation without `security` as
 * "not said" rather than "public", and linters flag it; this says it.
 */
export const ApiPublic = () => ApiExtension(PUBLIC_EXTENSION, true);

/**
 * Gives the operations marked @ApiPublic() their empty security requirement. A route both public
 * and secured is a mistake in its decorators, so it fails the document rather than choosing one.
 */
export function documentPublicOperations(document: OpenAPIObject): OpenAPIObject {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, Operation>)) {
      if (operation[PUBLIC_EXTENSION] !== true) continue;
      delete operation[PUBLIC_EXTENSION];
      if (operation.security?.length)
        throw new Error(`${method.toUpperCase()} ${path} is marked @ApiPublic() but requires ${JSON.stringify(operation.security)}`);
      operation.security = [];
    }
  }
  return document;
}
