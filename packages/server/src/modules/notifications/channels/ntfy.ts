import { str, type ChannelDriver } from './driver.js';
import { post, trimBase } from './http.js';

const PRIORITY = { critical: 5, error: 4, warning: 3, info: 2 } as const;

/**
 * ntfy's JSON publishing (POST to the server root with the topic in the body), so titles
 * need no header encoding; a token goes in Authorization.
 */
export const ntfy: ChannelDriver = {
  type: 'ntfy',
  async send(config, message, ctx) {
    const server = str(config, 'server_url') || ctx.endpoints.ntfyUrl;
    const token = str(config, 'token');
    await post(
      `${trimBase(server)}/`,
      {
        json: {
          topic: str(config, 'topic'),
          title: message.title,
          message: message.body,
          markdown: true,
          priority: message.kind === 'resolved' ? 2 : PRIORITY[message.severity],
          tags: [message.kind === 'resolved' ? 'white_check_mark' : 'rotating_light'],
        },
      },
      ctx,
      token === '' ? {} : { authorization: `Bearer ${token}` },
    );
  },
};
