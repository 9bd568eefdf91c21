import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { requestIdOf } from './request-id';

/**
 * The id of the current HTTP request (see assignRequestId), on Express and Fastify alike:
 * `handle(@RequestId() requestId: string | null)`. Null outside an HTTP request.
 */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string | null =>
  context.getType() === 'http' ? requestIdOf(context.switchToHttp().getRequest()) : null,
);
