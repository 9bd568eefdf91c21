import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ProblemException } from '../problems/problem.exception';

export interface FieldError {
  field: string;
  messages: string[];
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: Object.values(error.constraints) }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/** Own keys that class-transformer drops before validation, so the whitelist never sees them. */
const DROPPED_KEYS = ['__proto__', 'constructor'];

function droppedKeys(value: unknown, parent = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const field = parent ? `${parent}.${key}` : key;
    return [...(DROPPED_KEYS.includes(key) ? [field] : []), ...droppedKeys((value as Record<string, unknown>)[key], field)];
  });
}

function validationProblem(fieldErrors: FieldError[]): ProblemException {
  const detail = fieldErrors.map((error) => error.messages.join(', ')).join('; ') || 'The request is not valid';
  return new ProblemException(400, 'validation_failed', detail, { extensions: { errors: fieldErrors } });
}

/** Rejects `__proto__` and `constructor` keys like any other unknown field instead of silently dropping them. */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const dropped = droppedKeys(value);
      if (dropped.length > 0) throw validationProblem(dropped.map((field) => ({ field, messages: [`property ${field} should not exist`] })));
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validation for every DTO: unknown fields are rejected (not silently dropped), values are
 * converted to the declared types, and failures become one `validation_failed` problem that
 * lists every field.
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationProblem(flattenValidationErrors(errors)),
  });
}
