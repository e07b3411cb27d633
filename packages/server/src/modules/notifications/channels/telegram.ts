import { toHtml, truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post, trimBase } from './http.js';

/**
 * Telegram Bot API sendMessage with parse_mode HTML (the text escaped, bold and code kept).
 * `chat_id` may name a forum topic after a slash (-100123/42); `token` is the legacy name
 * of `bot_token`.
 */
export const telegram: ChannelDriver = {
  type: 'telegram',
  async send(config, message, ctx) {
    const token = str(config, 'bot_token') || str(config, 'token');
    const [chat, thread] = str(config, 'chat_id').split('/');
    const body: Record<string, unknown> = {
      chat_id: chat,
      text: truncate(toHtml(message.body), 4096),
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    };
    if (thread !== undefined && /^\d+$/.test(thread)) body.message_thread_id = Number(thread);
    await post(
      `${trimBase(ctx.endpoints.telegramApiUrl)}/bot${token}/sendMessage`,
      { json: body },
      ctx,
    );
  },
};
