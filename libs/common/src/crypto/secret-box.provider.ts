import { Provider } from '@nestjs/common';
import { SESAME_CONFIG } from '../config/config.module';
import { SesameConfig } from '../config/sesame-config';
import { SecretBox } from './secret-box';

/** SecretBox keyed with SECRETS_KEY. */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [SESAME_CONFIG],
  useFactory: (config: SesameConfig) => new SecretBox(config.secrets.key),
};
