import { Param, ParseUUIDPipe } from '@nestjs/common';
import { problem } from '../problems/problem.exception';

/** A path parameter that must be a UUID; anything else is a 400 `invalid_id` before any lookup. */
export const UuidParam = (name: string) =>
  Param(name, new ParseUUIDPipe({ exceptionFactory: () => problem('invalid_id', `${name} must be a UUID`) }));
