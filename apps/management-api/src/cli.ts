import 'reflect-metadata';
import { INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ClockModule, loadConfig, Plan, PLANS, RedisModule, SesameConfig, SesameConfigModule } from '@sesame/common';
import { DatabaseModule, runMigrations } from '@sesame/entities';
import { ApplicationsModule } from './applications/applications.module';
import { ApplicationsService } from './applications/applications.service';
import { SystemTenantModule } from './system-tenant/system-tenant.module';
import { SystemTenantService } from './system-tenant/system-tenant.service';
import { TenantsModule } from './tenants/tenants.module';
import { TenantsService } from './tenants/tenants.service';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending database migrations, then compute the
                                            HMAC verifiers of client secrets stored as bare hashes
  tenant:create --name <name> --plan <plan> [--owner-email <address>]
                                            create a tenant and print its first API key; with an owner,
                                            also its first member, who is e-mailed an invitation
                                            (plan: ${PLANS.join(', ')})
  console:setup [--credentials-file <path>] [--rotate-secret]
                                            create or update the console's system tenant, organization
                                            and application (for CONSOLE_PUBLIC_URL), and write the
                                            console's client id and secret to the file (mode 0600);
                                            --rotate-secret gives the console a new client secret`;

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
      const { values } = parseArgs({
        args: rest,
        options: { name: { type: 'string' }, plan: { type: 'string' }, 'owner-email': { type: 'string' } },
      });
      if (!values.name || !PLANS.includes(values.plan as Plan)) return usage();
      return withContext(config, TenantsModule, async (app) => {
        const { tenant, apiKey, owner } = await app
          .get(TenantsService)
          .createTenant({ name: values.name!, plan: values.plan as Plan, ownerEmail: values['owner-email'] });
        console.log(`Tenant ${tenant.name} (${tenant.id}, plan ${tenant.plan})\nAPI key (shown once): ${apiKey.key}`);
        if (owner) console.log(`Owner ${owner.email}: invited to the console (${config.console.publicUrl})`);
      });
    }
    case 'console:setup': {
      const { values } = parseArgs({
        args: rest,
        options: { 'credentials-file': { type: 'string' }, 'rotate-secret': { type: 'boolean' } },
      });
      return withContext(config, SystemTenantModule, async (app) => {
        const credentials = await app.get(SystemTenantService).ensureConsole({ rotateSecret: values['rotate-secret'] ?? false });
        if (values['credentials-file'])
          await writeFile(values['credentials-file'], `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
        console.log(`Console application ready for ${config.console.publicUrl} (client id ${credentials.clientId})`);
      });
    }
    default:
      return usage();
  }
}

/** Needs SECRETS_KEY (the verifier key derives from it, the secrets are sealed with it), which a migration does not have. */
async function upgradeLegacyVerifiers(config: SesameConfig): Promise<number> {
  let upgraded = 0;
  await withContext(config, ApplicationsModule, async (app) => {
    upgraded = await app.get(ApplicationsService).upgradeLegacyVerifiers();
  });
  return upgraded;
}

/**
 * Runs `work` with the feature module and what it needs (configuration, clock, database, and Redis,
 * on which a change such as a plan tells the running instances to drop their cached copies), then
 * closes everything.
 */
async function withContext(
  config: SesameConfig,
  feature: Type<unknown>,
  work: (app: INestApplicationContext) => Promise<void>,
): Promise<number> {
  @Module({ imports: [SesameConfigModule.forRoot(config), ClockModule, DatabaseModule, RedisModule, feature] })
  class CliModule {}
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    await work(app);
  } finally {
    await app.close();
  }
  return 0;
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
