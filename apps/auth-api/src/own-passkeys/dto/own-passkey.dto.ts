import { ApiProperty } from '@nestjs/swagger';

/** One of the signed-in user's passkeys, as they manage it: never the key or the credential id. */
export class OwnPasskeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Chrome on macOS', description: 'Named after the browser and system that registered it.' })
  name: string;

  @ApiProperty({
    enum: ['singleDevice', 'multiDevice'],
    description: '`multiDevice`: synced (a password manager, iCloud Keychain, Google Password Manager); `singleDevice`: this device only.',
  })
  deviceType: 'singleDevice' | 'multiDevice';

  @ApiProperty({ description: 'Whether the authenticator reported it backed up.' })
  backedUp: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'shop.example.com',
    description:
      "Where it signs in: the RP ID (a host) of the application's own page it was made on; null for the hosted login page. A passkey signs in only under the RP ID it was made for.",
  })
  rpId: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}

export class OwnPasskeyListResponse {
  @ApiProperty({ type: [OwnPasskeyResponse], description: 'Oldest first.' })
  data: OwnPasskeyResponse[];
}
