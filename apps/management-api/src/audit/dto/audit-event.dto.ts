import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { PageQuery } from '@sesame/common';
import { AUDIT_ACTOR_TYPES, AuditActorType, AuditEvent } from '@sesame/entities';

export class AuditEventQuery extends PageQuery {
  @ApiPropertyOptional({ enum: AUDIT_ACTOR_TYPES, description: 'Only changes made by this kind of caller.' })
  @IsOptional()
  @IsIn(AUDIT_ACTOR_TYPES)
  actorType?: AuditActorType;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only changes made by this API key or member.' })
  @IsOptional()
  @IsUUID()
  actorId?: string;

  @ApiPropertyOptional({ example: 'application.rotate_secret', description: 'Only this action.' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z_]+\.[a-z_]+$/, { message: 'action must look like organization.update' })
  @MaxLength(64)
  action?: string;

  @ApiPropertyOptional({ example: 'application', description: 'Only changes of this kind of object.' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z_]+$/, { message: 'targetType must be a word such as application' })
  @MaxLength(32)
  targetType?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only changes of this object.' })
  @IsOptional()
  @IsUUID()
  targetId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only changes made at or after this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only changes made before this time.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class AuditActorResponse {
  @ApiProperty({ enum: AUDIT_ACTOR_TYPES })
  type: AuditActorType;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The API key's or the member's id; null for the platform key.",
  })
  id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ada@example.com',
    description: "The API key's name or the member's address at the time; null for the platform key.",
  })
  name: string | null;
}

export class AuditEventResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: AuditActorResponse })
  actor: AuditActorResponse;

  @ApiProperty({
    example: 'organization.update',
    description: '`<target type>.<verb>`: create, update, delete, revoke, rotate_secret, invite, remove.',
  })
  action: string;

  @ApiProperty({ example: 'organization' })
  targetType: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  targetId: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { name: 'Acme Europe' },
    description:
      'The fields the request set. Never a secret: client secrets and API keys are only ever in answers, which are not recorded.',
  })
  changes: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7', description: "The caller's address (through TRUST_PROXY)." })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request, as in the logs.' })
  requestId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  static from(event: AuditEvent): AuditEventResponse {
    return {
      id: event.id,
      actor: { type: event.actorType, id: event.actorId, name: event.actorName },
      action: event.action,
      targetType: event.targetType,
      targetId: event.targetId,
      changes: event.changes,
      ip: event.ip,
      requestId: event.requestId,
      createdAt: event.createdAt.toISOString(),
    };
  }
}
