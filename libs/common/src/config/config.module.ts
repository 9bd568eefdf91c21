import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { ConfigurationError, parseEnvironment } from './parse-environment';
import { SesameConfig } from './sesame-config';

const CONFIG_NAMESPACE = 'sesame';

/** Injection token for the validated configuration: `@Inject(SESAME_CONFIG) config: SesameConfig`. */
export const SESAME_CONFIG = Symbol('SESAME_CONFIG');

/**
 * Validates the environment once, before anything starts. On a bad variable it prints every
 * problem, naming each variable, and exits; nothing is half-started.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SesameConfig {
  try {
    return parseEnvironment(env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/**
 * Makes the validated configuration available to every module, through @nestjs/config's
 * ConfigService (namespace `sesame`) and, typed, through the SESAME_CONFIG token.
 */
@Global()
@Module({})
export class SesameConfigModule {
  static forRoot(config: SesameConfig): DynamicModule {
    return {
      module: SesameConfigModule,
      imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [() => ({ [CONFIG_NAMESPACE]: config })] })],
      providers: [
        {
          provide: SESAME_CONFIG,
          inject: [ConfigService],
          useFactory: (configService: ConfigService) => configService.getOrThrow<SesameConfig>(CONFIG_NAMESPACE),
        },
      ],
      exports: [SESAME_CONFIG],
    };
  }
}
