import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClockModule, loadConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule } from '@sesame/entities';
import { SigningKeysModule } from './tokens/signing-keys.module';
import { SigningKeysService } from './tokens/signing-keys.service';

const USAGE = `Usage: npm run cli:auth -- <command>

Commands:
  signing-key:rotate   create a new id_token signing key and retire the current one
                       (it stays published in the JWKS until the id_tokens it signed expire;
                       every auth-api instance picks the new key up within a minute)`;

async function main([command]: string[]): Promise<number> {
  if (command !== 'signing-key:rotate') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  @Module({ imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, SigningKeysModule] })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const kid = await app.get(SigningKeysService).rotate();
    console.log(`New signing key ${kid}; the previous key is retired and stays in the JWKS until its tokens expire.`);
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
