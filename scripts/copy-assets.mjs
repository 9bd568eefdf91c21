// Copies non-TypeScript files the apps read at run time (e-mail templates) into dist/.
import { cpSync } from 'node:fs';

for (const dir of ['apps/mail-worker/src/mail/templates']) {
  cpSync(dir, `dist/${dir}`, { recursive: true });
}
