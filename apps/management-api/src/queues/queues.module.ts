import { DynamicModule, Module } from '@nestjs/common';
import { SesameConfig } from '@sesame/common';
import { MailQueueModule } from '@sesame/queue';
import { QueueBoard } from './queue-board';
import { QueueDepthMetrics } from './queue-depth.metrics';
import { QueueBoardController } from './queue-board.controller';
import { QueueBoardGuard } from './queue-board.guard';

/**
 * Operations on the Bull queues: the dashboard at /api/v2/queues, only when an operator turns it
 * on (QUEUE_DASHBOARD=on) and a platform key exists; otherwise the path is not routed at all (404).
 * The queue depth is in this app's /api/metrics either way.
 */
@Module({})
export class QueuesModule {
  static forRoot(config: SesameConfig): DynamicModule {
    const enabled = config.queueDashboard && config.secrets.platformApiKey !== null;
    return {
      module: QueuesModule,
      imports: [MailQueueModule],
      controllers: enabled ? [QueueBoardController] : [],
      providers: [QueueDepthMetrics, ...(enabled ? [QueueBoard, QueueBoardGuard] : [])],
    };
  }
}
