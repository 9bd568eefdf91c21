import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { unauthorized } from '@sesame/common';
import { ApiKeyVerifier } from './api-key-verifier';
import { IS_PUBLIC, RequestWithPrincipal } from './principal';

const REALM = 'Bearer realm="sesame"';

/** Authenticates `Authorization: Bearer <API key>` and puts the key's principal on the request. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const key = bearerToken(request.headers.authorization);
    if (key === undefined) throw unauthorized('missing_api_key', 'Send an API key as `Authorization: Bearer <key>`', REALM);
    const principal = key ? await this.verifier.verify(key) : null;
    if (!principal) {
      throw unauthorized('invalid_api_key', 'The API key is not valid', `${REALM}, error="invalid_token", error_description="The API key is not valid"`);
    }
    request.principal = principal;
    return true;
  }
}

/** The token of a Bearer authorization header; undefined when there is no Bearer header, '' when it is empty. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}
