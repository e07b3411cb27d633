import { colorOf, toSlackMrkdwn, truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post } from './http.js';

/** A Slack incoming webhook: a mrkdwn section block in an attachment of the severity's colour. */
export const slack: ChannelDriver = {
  type: 'slack',
  async send(config, message, ctx) {
    await post(
      str(config, 'webhook_url'),
      {
        json: {
          text: message.title,
          attachments: [
            {
              color: colorOf(message),
              blocks: [
                {
                  type: 'section',
                  text: { type: 'mrkdwn', text: truncate(toSlackMrkdwn(message.body), 3000) },
                },
              ],
            },
          ],
        },
      },
      ctx,
    );
  },
};
