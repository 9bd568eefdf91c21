import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString } from 'class-validator';
import { APPLICATION_TYPES, ApplicationType, NameField, Omittable } from '@sesame/common';
import { Application } from '@sesame/entities';

export const MAX_CALLBACK_URLS = 20;

const CALLBACK_URLS_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_CALLBACK_URLS,
  example: ['https://app.example.com/auth/callback'],
  description:
    'Exact redirect URIs. https; http only on loopback (desktop: 127.0.0.1 or [::1], any port at login); ' +
    'reverse-domain custom schemes (com.example.app:/callback) only for android and ios; no fragments or credentials. ' +
    'Web apps without callback URLs accept any redirect_uri on a whitelist domain.',
};

/** Callback URLs, which creation and update both accept. */
class CallbackUrlsDto {
  @ApiPropertyOptional(CALLBACK_URLS_DOC)
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_CALLBACK_URLS)
  @IsString({ each: true })
  callbackUrls?: string[];
}

export class CreateApplicationDto extends CallbackUrlsDto {
  @NameField({ required: true, example: 'Acme web shop' })
  name: string;

  @ApiProperty({ enum: APPLICATION_TYPES, description: 'web apps get a client secret; android, ios and desktop apps use PKCE instead.' })
  @IsIn(APPLICATION_TYPES)
  type: ApplicationType;
}

export class UpdateApplicationDto extends CallbackUrlsDto {
  @NameField({ required: false, example: 'Acme web shop' })
  name?: string;
}

export class ApplicationSummary {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ example: 'Acme web shop' })
  name: string;

  @ApiProperty({ enum: APPLICATION_TYPES })
  type: ApplicationType;

  @ApiProperty({ example: 'q0mM9bX4c2cJ7h1kZ3uYtA', description: 'The client_id of OAuth requests.' })
  clientId: string;

  @ApiProperty({ type: [String] })
  callbackUrls: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(application: Application): ApplicationSummary {
    return {
      id: application.id,
      organizationId: application.organizationId,
      name: application.name,
      type: application.type,
      clientId: application.clientId,
      callbackUrls: application.callbackUrls,
      createdAt: application.createdAt.toISOString(),
      updatedAt: application.updatedAt.toISOString(),
    };
  }
}

/** The integration data of one application, secret included. */
export class ApplicationResponse extends ApplicationSummary {
  @ApiProperty({ type: String, nullable: true, description: 'The client secret of a web app; null for native apps, which have none.' })
  clientSecret: string | null;
}
