import { ValidationError, ValidationPipe } from '@nestjs/common';
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

/**
 * Validation for every DTO: unknown fields are rejected (not silently dropped), values are
 * converted to the declared types, and failures become one `validation_failed` problem that
 * lists every field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fieldErrors = flattenValidationErrors(errors);
      const detail = fieldErrors.map((error) => error.messages.join(', ')).join('; ') || 'The request is not valid';
      return new ProblemException(400, 'validation_failed', detail, { extensions: { errors: fieldErrors } });
    },
  });
}
