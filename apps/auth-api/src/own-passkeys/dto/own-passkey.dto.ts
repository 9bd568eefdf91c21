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

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}

export class OwnPasskeyListResponse {
  @ApiProperty({ type: [OwnPasskeyResponse], description: 'Oldest first.' })
  data: OwnPasskeyResponse[];
}
