import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ClockModule, loadConfig, Plan, PLANS, SesameConfigModule } from '@sesame/common';
import { DatabaseModule, runMigrations } from '@sesame/entities';
import { TenantsModule } from './tenants/tenants.module';
import { TenantsService } from './tenants/tenants.service';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending database migrations
  tenant:create --name <name> --plan <plan> create a tenant and print its first API key
                                            (plan: ${PLANS.join(', ')})`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'migrate': {
      const applied = await runMigrations(config.database.url);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
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
