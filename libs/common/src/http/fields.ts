import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A display name: a string of 1–200 characters after trimming. */
export function NameField(options: { required: boolean; example: string; description?: string }) {
  const doc = { example: options.example, description: options.description, minLength: 1, maxLength: 200 };
  return applyDecorators(
    ...(options.required ? [ApiProperty(doc)] : [ApiPropertyOptional(doc), IsOptional()]),
    trim,
    IsString(),
    IsNotEmpty(),
    MaxLength(200),
  );
}
