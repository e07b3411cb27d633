import { colorOf, truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post } from './http.js';

/** A Discord webhook: one embed in the severity's colour (Discord reads **bold** itself). */
export const discord: ChannelDriver = {
  type: 'discord',
  async send(config, message, ctx) {
    await post(
      str(config, 'webhook_url'),
      {
        json: {
          username: 'Berth',
          embeds: [
            {
              title: truncate(message.title, 256),
              description: truncate(message.body, 4096),
              color: parseInt(colorOf(message).slice(1), 16),
              timestamp: message.at,
            },
          ],
        },
      },
      ctx,
    );
  },
};
