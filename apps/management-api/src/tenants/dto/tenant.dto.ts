import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { NameField, Omittable, Plan, PLANS, WindowLimits } from '@sesame/common';
import { Tenant } from '@sesame/entities';
import { CreatedApiKeyResponse } from '../../api-keys/dto/api-key.dto';
import { MemberResponse } from '../../members/dto/member.dto';

export class CreateTenantDto {
  @NameField({ required: true, example: 'Acme' })
  name: string;

  @ApiProperty({ enum: PLANS, example: 'pro' })
  @IsIn(PLANS)
  plan: Plan;

  @ApiPropertyOptional({
    example: 'ada@example.com',
    maxLength: 320,
    description: "The tenant's first owner: a member who signs in to the console with this address, and is e-mailed an invitation.",
  })
  @Omittable()
  @IsString()
  @MaxLength(320)
  ownerEmail?: string;
}

export class UpdateTenantDto {
  @NameField({ required: false, example: 'Acme Inc.' })
  name?: string;

  @ApiPropertyOptional({ enum: PLANS, description: 'Only the platform key may change the plan.' })
  @Omittable()
  @IsIn(PLANS)
  plan?: Plan;
}

export class WindowLimitsResponse implements WindowLimits {
  @ApiProperty({ example: 10 })
  minute: number;

  @ApiProperty({ example: 100 })
  hour: number;

  @ApiProperty({ example: 1000 })
  day: number;
}

export class TenantResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Acme' })
  name: string;

  @ApiProperty({ enum: PLANS })
  plan: Plan;

  @ApiProperty({
    type: WindowLimitsResponse,
    description: "Management API requests allowed per window, shared by all of the tenant's keys.",
  })
  limits: WindowLimitsResponse;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(tenant: Tenant, limits: WindowLimits): TenantResponse {
    return {
      id: tenant.id,
      name: tenant.name,
      plan: tenant.plan,
      limits: { ...limits },
      createdAt: tenant.createdAt.toISOString(),
      updatedAt: tenant.updatedAt.toISOString(),
    };
  }
}

export class CreatedTenantResponse {
  @ApiProperty({ type: TenantResponse })
  tenant: TenantResponse;

  @ApiProperty({ type: CreatedApiKeyResponse, description: "The tenant's first API key; the key is shown only here." })
  apiKey: CreatedApiKeyResponse;

  @ApiProperty({ type: MemberResponse, nullable: true, description: 'The first owner, when `ownerEmail` was given.' })
  owner: MemberResponse | null;
}
