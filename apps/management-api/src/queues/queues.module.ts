import { Module } from '@nestjs/common';
import { MailQueueModule } from '@sesame/queue';
import { QueueBoard } from './queue-board';

/** Operations on the Bull queues: the dashboard at /api/v2/queues and the queue depth in /api/metrics. */
@Module({ imports: [MailQueueModule], providers: [QueueBoard] })
export class QueuesModule {}
