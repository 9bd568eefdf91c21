import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { ROLES, Role, PLANS, Plan } from '@sesame/common';
import { Membership, TenantMember } from '@sesame/entities';

const ROLE_DOC = {
  enum: ROLES,
  description: '`viewer` reads everything but secrets; `admin` does what a tenant key does; `owner` also manages members.',
};

export class InviteMemberDto {
  @ApiProperty({
    example: 'ada@example.com',
    maxLength: 320,
    description: 'Stored normalised, like users’ addresses. They sign in to the console with it.',
  })
  @IsString()
  @MaxLength(320)
  email: string;

  @ApiProperty(ROLE_DOC)
  @IsIn(ROLES)
  role: Role;
}

export class UpdateMemberDto {
  @ApiProperty(ROLE_DOC)
  @IsIn(ROLES)
  role: Role;
}

export class MemberResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  tenantId: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty(ROLE_DOC)
  role: Role;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'grace@example.com',
    description: "Who invited them: a member's address or an API key's name; null when they became owner as the tenant was created.",
  })
  invitedBy: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When they last signed in to the console.' })
  lastSignInAt: string | null;

  static from(member: TenantMember): MemberResponse {
    return {
      id: member.id,
      tenantId: member.tenantId,
      email: member.email,
      role: member.role,
      invitedBy: member.invitedBy,
      createdAt: member.createdAt.toISOString(),
      lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
    };
  }
}

export class MembershipResponse {
  @ApiProperty({ format: 'uuid' })
  memberId: string;

  @ApiProperty({ format: 'uuid', description: 'Send it as `Sesame-Tenant` to act in this tenant.' })
  tenantId: string;

  @ApiProperty({ example: 'Acme' })
  tenantName: string;

  @ApiProperty({ enum: PLANS })
  plan: Plan;

  @ApiProperty(ROLE_DOC)
  role: Role;

  static from(membership: Membership): MembershipResponse {
    return { ...membership };
  }
}

export class MeResponse {
  @ApiProperty({ example: 'ada@example.com', description: 'The verified address the person signed in with.' })
  email: string;

  @ApiProperty({
    type: [MembershipResponse],
    description: 'The tenants they are a member of; empty when none (they may then do nothing else).',
  })
  memberships: MembershipResponse[];
}
