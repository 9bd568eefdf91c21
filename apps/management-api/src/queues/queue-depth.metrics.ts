import { InjectQueue } from '@nestjs/bull';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { SesameMetrics } from '@sesame/common';
import { MAIL_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';

/** The mail queue's depth (sesame_queue_jobs) on every scrape of this app. */
@Injectable()
export class QueueDepthMetrics implements OnModuleInit {
  constructor(
    @InjectQueue(MAIL_QUEUE) private readonly mailQueue: Queue,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  onModuleInit(): void {
    this.metrics?.watchQueue(this.mailQueue);
  }
}
