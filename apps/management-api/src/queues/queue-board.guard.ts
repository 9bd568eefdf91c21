import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { isSameOriginRequest, problem, readCookie, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { BOARD_SESSION_COOKIE, bearerIsPlatformKey } from './board-access';
import { QueueBoard } from './queue-board';

interface BoardRequestHeaders {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The dashboard is for the operator: `Authorization: Bearer <platform key>` (tools), or the session
 * cookie of the sign-in form (browsers). A change made with the cookie must come from the dashboard's
 * own pages (Sec-Fetch-Site / Origin), so another site cannot retry or clean jobs through it.
 */
@Injectable()
export class QueueBoardGuard implements CanActivate {
  private readonly origin: string;

  constructor(
    private readonly board: QueueBoard,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {
    this.origin = new URL(config.http.publicBaseUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<BoardRequestHeaders>();
    if (bearerIsPlatformKey(request.headers.authorization, this.config.secrets.platformApiKey!)) return true;
    const cookie = request.headers.cookie;
    if (
      !this.board.sessions.valid(readCookie(Array.isArray(cookie) ? cookie.join('; ') : cookie, BOARD_SESSION_COOKIE), this.board.now())
    ) {
      throw problem(
        'platform_key_required',
        'The queue dashboard needs the platform key: sign in at its session page, or send Authorization: Bearer <key>',
        {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer realm="sesame"' },
        },
      );
    }
    if (!['GET', 'HEAD'].includes(request.method.toUpperCase()) && !isSameOriginRequest(request.headers, this.origin)) {
      throw problem('cross_site_request', 'Changes through the dashboard must come from its own pages');
    }
    return true;
  }
}
