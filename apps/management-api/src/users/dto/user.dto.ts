import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { NameField, Omittable, PageQuery } from '@sesame/common';
import { User } from '@sesame/entities';

export class CreateUserDto {
  @ApiProperty({
    example: 'ada@example.com',
    maxLength: 320,
    description: 'At most 254 characters once normalised. Stored normalised: trimmed, lower-cased, IDN domain in punycode.',
  })
  @IsString()
  @MaxLength(320)
  email: string;

  @NameField({ required: false, example: 'Ada Lovelace' })
  name?: string;

  @ApiPropertyOptional({ default: false, description: 'A blocked user cannot log in and receives no login e-mails.' })
  @Omittable()
  @IsBoolean()
  blocked?: boolean;
}

export class UpdateUserDto {
  @NameField({ required: false, example: 'Ada Lovelace' })
  name?: string;

  @ApiPropertyOptional({ description: 'A blocked user cannot log in, receives no login e-mails, and their access tokens stop working.' })
  @Omittable()
  @IsBoolean()
  blocked?: boolean;
}

export class UserQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only the user with this address (compared after normalisation).' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;
}

export class UserResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada Lovelace' })
  name: string | null;

  @ApiProperty()
  blocked: boolean;

  @ApiProperty({ description: 'True once the user has used a login link.' })
  emailVerified: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastLoginAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(user: User): UserResponse {
    return {
      id: user.id,
      organizationId: user.organizationId,
      email: user.email,
      name: user.name,
      blocked: user.blocked,
      emailVerified: user.emailVerified,
      lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  }
}
