import type { NotificationRequest } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Where the engine hands a notification once one is due. Channels (pushover, slack, ...)
 * implement it; the engine alone decides when: after duration and occurrences, outside the
 * cooldown, and on an automatic resolve when the rule has auto_resolve.
 */
export interface NotifyPort {
  notify(request: NotificationRequest): Promise<void>;
}

/** Until channels exist: say in the log what would have been sent. */
export class LoggingNotifier implements NotifyPort {
  constructor(private readonly log: FastifyBaseLogger) {}

  notify(request: NotificationRequest): Promise<void> {
    this.log.info(
      {
        event: request.event,
        alert: request.alert.id,
        rule: request.rule.name,
        channels: request.rule.notify_channels_json,
      },
      `notification due: ${request.alert.title}`,
    );
    return Promise.resolve();
  }
}
