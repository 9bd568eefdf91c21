import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError } from '../problems/problem-details';
import { problem, ProblemException } from '../problems/problem.exception';

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: Object.values(error.constraints) }] : [];
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/** Own keys that class-transformer drops before validation, so the whitelist never sees them. */
const DROPPED_KEYS = ['__proto__', 'constructor'];

/** Deeper than any DTO goes; the limit keeps every recursive walk (ours, class-transformer's) far from the stack's end. */
export const MAX_INPUT_DEPTH = 32;

/** C0 controls and DEL, except tab, line feed and carriage return: no field of the API means them, and Postgres refuses NUL. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Checks a body or query before class-transformer sees it, without recursion: nesting beyond
 * MAX_INPUT_DEPTH is refused outright; otherwise every dropped key and (with checkText) every string
 * with control characters is reported as a field error.
 */
function inspectInput(root: unknown, rootField: string, checkText: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const pending: { value: unknown; field: string; depth: number }[] = [{ value: root, field: rootField, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, field, depth } = next;
    if (checkText && typeof value === 'string' && CONTROL_CHARACTERS.test(value))
      errors.push({ field: field || 'body', messages: [`${field || 'body'} must not contain control characters`] });
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_INPUT_DEPTH) throw problem('malformed_body', `The request is nested more than ${MAX_INPUT_DEPTH} levels deep`);
    for (const key of Object.keys(value)) {
      const child = field ? `${field}.${key}` : key;
      if (DROPPED_KEYS.includes(key)) errors.push({ field: child, messages: [`property ${child} should not exist`] });
      if (CONTROL_CHARACTERS.test(key)) errors.push({ field: child, messages: [`property ${child} should not exist`] });
      pending.push({ value: (value as Record<string, unknown>)[key], field: child, depth: depth + 1 });
    }
  }
  return errors;
}

function validationProblem(fieldErrors: FieldError[]): ProblemException {
  const detail = fieldErrors.map((error) => error.messages.join(', ')).join('; ') || 'The request is not valid';
  return problem('validation_failed', detail, { extensions: { errors: fieldErrors } });
}

/**
 * Rejects `__proto__` and `constructor` keys like any other unknown field instead of silently
 * dropping them, control characters in any string, and nesting deeper than any DTO.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      // A query read as a plain record (GET /v1/authorize) is checked by its handler, which answers as OAuth requires.
      const checkText = metadata.type === 'body' || (metadata.metatype !== undefined && metadata.metatype !== Object);
      const errors = inspectInput(value, metadata.data ?? '', checkText);
      if (errors.length > 0) throw validationProblem(errors);
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
