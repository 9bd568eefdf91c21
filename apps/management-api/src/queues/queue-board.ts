import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { Clock, secretsEqual, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MAIL_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import { BoardSessions } from './board-access';
import { BoardAnswer, BoardRequest, NestBoardAdapter } from './board-adapter';

/**
 * The Bull dashboard (@bull-board) of the mail queue, for operators: waiting, delayed, failed and
 * completed jobs, failed ones with their errors, retry, promote and clean. Its routes are answered
 * by QueueBoardController inside Nest (its guards, rate limits and filters).
 */
@Injectable()
export class QueueBoard implements OnModuleInit {
  private readonly adapter: NestBoardAdapter;
  readonly sessions: BoardSessions;

  constructor(
    @InjectQueue(MAIL_QUEUE) private readonly mailQueue: Queue,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {
    this.adapter = new NestBoardAdapter(`${this.basePath}/`);
    this.sessions = new BoardSessions(config.secrets.key, config.secrets.platformApiKey!);
  }

  get basePath(): string {
    return `/${this.config.http.apiPrefix}/v2/queues`;
  }

  onModuleInit(): void {
    createBullBoard({
      queues: [new BullAdapter(this.mailQueue)],
      serverAdapter: this.adapter,
      options: { uiConfig: { boardTitle: 'Sesame queues' } },
    });
  }

  /** A new browser session for the platform key (compared in constant time), or null for anything else. */
  signIn(key: string): string | null {
    return secretsEqual(key, this.config.secrets.platformApiKey!) ? this.sessions.issue(this.clock.now()) : null;
  }

  handle(request: BoardRequest): Promise<BoardAnswer | null> {
    return this.adapter.handle(request);
  }

  now(): Date {
    return this.clock.now();
  }
}
