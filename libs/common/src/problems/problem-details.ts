import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { errorCodesOf } from './error-codes';

/** One field's messages in a `validation_failed` problem; `field` is a path such as `whitelistDomains.1`. */
export class FieldError {
  @ApiProperty({ example: 'name' })
  field: string;

  @ApiProperty({ type: [String], example: ['name must be shorter than or equal to 200 characters'] })
  messages: string[];
}

/** The codes a problem body can carry: the management API's and the console's, and the auth API's that the console passes on. */
export const PROBLEM_CODES = errorCodesOf(['v2', 'console', 'v1']);

/** RFC 9457 problem details, as every management API error is answered. */
export class ProblemDetails {
  @ApiProperty({ example: 'urn:sesame:error:not_found', description: 'Identifies the problem type; the suffix equals `code`.' })
  type: string;

  @ApiProperty({ example: 'Not Found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'organization not found' })
  detail: string;

  @ApiProperty({
    example: 'not_found',
    enum: PROBLEM_CODES,
    description:
      "Stable machine-readable error code (see docs/errors.md). The console passes on the auth API's codes, so they are listed too.",
  })
  code: string;

  @ApiPropertyOptional({ example: '/api/v2/organization/2d5d5f0e-0f7b-4e84-8a52-39b8bd0e4a0b' })
  instance?: string;

  @ApiPropertyOptional({
    type: [FieldError],
    description: 'Field errors of a `validation_failed` problem.',
    example: [{ field: 'name', messages: ['name must be shorter than or equal to 200 characters'] }],
  })
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: string): string {
  return `urn:sesame:error:${code}`;
}
