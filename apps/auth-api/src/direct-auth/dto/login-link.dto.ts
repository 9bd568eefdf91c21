import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The link page's Continue form: to the link's own POST, or to the hosted page's (/v1/authorize/link) in the browser that asked. */
export class LoginLinkForm {
  @ApiProperty({ description: 'The token of the e-mailed link.' })
  @IsString()
  @MaxLength(100)
  token: string;
}

/** The approval page's form. */
export class ApprovalForm {
  @ApiProperty({ description: 'The token of the e-mailed link.' })
  @IsString()
  @MaxLength(100)
  token: string;

  @ApiPropertyOptional({ description: 'The two-digit approval number the requesting screen shows; without it nothing changes (400).' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  number?: string;
}
