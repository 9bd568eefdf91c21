import { ApiProperty } from '@nestjs/swagger';
import { PASSKEY_DEVICE_TYPES, PasskeyDeviceType, PasskeySummary } from '@sesame/entities';

/** A user's passkey as tenants see it: never its public key or credential id. */
export class PasskeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Chrome on macOS', description: 'Where it was made, as the browser said when it was registered.' })
  name: string;

  @ApiProperty({
    enum: PASSKEY_DEVICE_TYPES,
    description:
      "`multiDevice`: a synced passkey (e.g. in a password manager or the platform's keychain); `singleDevice`: bound to one authenticator.",
  })
  deviceType: PasskeyDeviceType;

  @ApiProperty({ description: 'Whether the authenticator last reported it backed up (synced).' })
  backedUp: boolean;

  @ApiProperty({
    type: [String],
    example: ['internal', 'hybrid'],
    description: 'How the browser can reach the authenticator, as it reported at registration (WebAuthn transports); may be empty.',
  })
  transports: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'app.example.com',
    description:
      "Where it signs in: the RP ID (a host) of the application's own page it was made on; null for the hosted login page. A passkey signs in only under the RP ID it was made for.",
  })
  rpId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The last sign-in with it; null if never used.' })
  lastUsedAt: string | null;

  static from(passkey: PasskeySummary): PasskeyResponse {
    return {
      id: passkey.id,
      name: passkey.name,
      deviceType: passkey.deviceType,
      backedUp: passkey.backedUp,
      transports: passkey.transports,
      rpId: passkey.rpId,
      createdAt: passkey.createdAt.toISOString(),
      lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
    };
  }
}

/** All of a user's passkeys in one answer, oldest first: a user has few, so the list is not paged. */
export class PasskeyList {
  @ApiProperty({ type: [PasskeyResponse] })
  data: PasskeyResponse[];
}
