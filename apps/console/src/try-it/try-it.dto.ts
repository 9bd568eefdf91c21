import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class TryItDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  organizationId: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  applicationId: string;
}

export class TryItResponse {
  @ApiProperty({
    enum: ['direct', 'hosted'],
    description:
      '`direct`: Sesame e-mailed a login link (direct authentication); `hosted`: open `hostedUrl`, the hosted login page for the application.',
  })
  mode: 'direct' | 'hosted';

  @ApiProperty({ example: 'ada@example.com', description: 'The signed-in member’s own address: the only one the console sends a try to.' })
  email: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The login attempt (direct).' })
  loginAttemptId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Clever nectar jingles greatly',
    description: 'The sentence the e-mail shows (direct).',
  })
  sentence: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '42',
    description: 'The approval number: typed on another device that opened the link, it approves the try (direct).',
  })
  approvalNumber: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The hosted login page for the application, the address filled in (hosted).' })
  hostedUrl: string | null;

  @ApiProperty({
    example: 'https://app.example.com/callback',
    description: 'Where Sesame sends the browser after the link: the application’s callback.',
  })
  redirectUri: string;
}

export class SesameEndpointsResponse {
  @ApiProperty({ example: 'http://localhost:3000/api/v1' })
  issuer: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/.well-known/openid-configuration' })
  discovery: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/.well-known/jwks.json' })
  jwks: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/authorize' })
  authorize: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/authenticate_direct' })
  authenticateDirect: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/verify' })
  verify: string;

  @ApiProperty({ example: 'http://localhost:3000/api/v1/userinfo' })
  userinfo: string;
}
