import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { TypeOrmModule } from '@nestjs/typeorm';
import { clientSecretVerifierProvider, ClockModule, loadConfig, Plan, PLANS, secretBoxProvider, SesameConfig, SesameConfigModule } from '@sesame/common';
import { AccessToken, Application, DatabaseModule, runMigrations } from '@sesame/entities';
import { ApplicationRepository } from './applications/application.repository';
import { ApplicationsService } from './applications/applications.service';
import { TenantsModule } from './tenants/tenants.module';
import { TenantsService } from './tenants/tenants.service';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending database migrations, then compute the
                                            HMAC verifiers of client secrets stored as bare hashes
  tenant:create --name <name> --plan <plan> create a tenant and print its first API key
                                            (plan: ${PLANS.join(', ')})`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'migrate': {
      const applied = await runMigrations(config.database.url);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
      const upgraded = await upgradeLegacyVerifiers(config);
      if (upgraded > 0) console.log(`Client secrets: ${upgraded} bare SHA-256 hashes replaced by HMAC verifiers`);
      return 0;
    }
    case 'tenant:create': {
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, plan: { type: 'string' } } });
      if (!values.name || !PLANS.includes(values.plan as Plan)) return usage();
      @Module({ imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, TenantsModule] })
      class CliModule {}
      const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
      try {
        const { tenant, apiKey } = await app.get(TenantsService).createTenant({ name: values.name, plan: values.plan as Plan });
        console.log(`Tenant ${tenant.name} (${tenant.id}, plan ${tenant.plan})\nAPI key (shown once): ${apiKey.key}`);
      } finally {
        await app.close();
      }
      return 0;
    }
    default:
      return usage();
  }
}

/** Needs SECRETS_KEY (the verifier key derives from it, the secrets are sealed with it), which a migration does not have. */
async function upgradeLegacyVerifiers(config: SesameConfig): Promise<number> {
  @Module({
    imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, TypeOrmModule.forFeature([Application, AccessToken])],
    providers: [ApplicationRepository, ApplicationsService, secretBoxProvider, clientSecretVerifierProvider],
  })
  class UpgradeModule {}
  const app = await NestFactory.createApplicationContext(UpgradeModule, { logger: ['error'] });
  try {
    return await app.get(ApplicationsService).upgradeLegacyVerifiers();
  } finally {
    await app.close();
  }
}

function usage(): number {
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
