import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApplicationType, Plan } from '@sesame/common';

/** The application that authenticated a request to the auth API (set by ClientAuthGuard). */
export interface ClientPrincipal {
  applicationId: string;
  clientId: string;
  type: ApplicationType;
  organizationId: string;
  tenantId: string;
  plan: Plan;
  /**
   * The id_token JWE key: SHA-256 of the secret this request authenticated with, for web apps whose
   * id_tokens are encrypted (`dir`); null when they are signed only. During a rotation overlap a
   * client that still presents the previous secret gets id_tokens it can open with it.
   */
  idTokenKey: Buffer | null;
  /** How the client authenticated (RFC 8414 names). */
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
}

export interface RequestWithClient {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  client?: ClientPrincipal;
}

/** The authenticated client application of the current request. */
export const CurrentClient = createParamDecorator((_: unknown, context: ExecutionContext): ClientPrincipal => {
  const client = context.switchToHttp().getRequest<RequestWithClient>().client;
  if (!client) throw new Error('No client on the request: is ClientAuthGuard applied?');
  return client;
});
