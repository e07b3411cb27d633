import { str, type ChannelDriver } from './driver.js';
import { post, trimBase } from './http.js';

const PRIORITY = { critical: 8, error: 7, warning: 5, info: 3 } as const;

/** Gotify's /message with the app token in X-Gotify-Key; the body is shown as markdown. */
export const gotify: ChannelDriver = {
  type: 'gotify',
  async send(config, message, ctx) {
    await post(
      `${trimBase(str(config, 'server_url'))}/message`,
      {
        json: {
          title: message.title,
          message: message.body,
          priority: message.kind === 'resolved' ? 3 : PRIORITY[message.severity],
          extras: { 'client::display': { contentType: 'text/markdown' } },
        },
      },
      ctx,
      { 'x-gotify-key': str(config, 'app_token') },
    );
  },
};
