import { truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post } from './http.js';

const COLOR = { critical: 'Attention', error: 'Attention', warning: 'Warning', info: 'Accent' };

/** A Microsoft Teams incoming webhook (Workflows): an Adaptive Card with title and body. */
export const teams: ChannelDriver = {
  type: 'teams',
  async send(config, message, ctx) {
    await post(
      str(config, 'webhook_url'),
      {
        json: {
          type: 'message',
          attachments: [
            {
              contentType: 'application/vnd.microsoft.card.adaptive',
              contentUrl: null,
              content: {
                $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
                type: 'AdaptiveCard',
                version: '1.4',
                body: [
                  {
                    type: 'TextBlock',
                    text: message.title,
                    weight: 'Bolder',
                    size: 'Medium',
                    wrap: true,
                    color: message.kind === 'resolved' ? 'Good' : COLOR[message.severity],
                  },
                  { type: 'TextBlock', text: truncate(message.body, 20_000), wrap: true },
                ],
              },
            },
          ],
        },
      },
      ctx,
    );
  },
};
