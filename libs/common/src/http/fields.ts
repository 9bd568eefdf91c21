import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';

/**
 * An optional body field: it may be left out, but `null` is validated like any other value of the
 * wrong type. (IsOptional would let null through to the database, as a 500 or as a cleared field.)
 */
export const Omittable = () => ValidateIf((_: object, value: unknown) => value !== undefined);

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A display name: a string of 1–200 characters after trimming. */
export function NameField(options: { required: boolean; example: string; description?: string }) {
  const doc = { example: options.example, description: options.description, minLength: 1, maxLength: 200 };
  return applyDecorators(
    ...(options.required ? [ApiProperty(doc)] : [ApiPropertyOptional(doc), Omittable()]),
    trim,
    IsString(),
    IsNotEmpty(),
    MaxLength(200),
  );
}
