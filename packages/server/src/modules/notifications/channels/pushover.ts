import { toHtml, truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post, trimBase } from './http.js';

const PRIORITY = { critical: '1', error: '0', warning: '0', info: '-1' } as const;

/** Pushover's messages API: a form with HTML text; critical alerts get high priority. */
export const pushover: ChannelDriver = {
  type: 'pushover',
  async send(config, message, ctx) {
    const form: Record<string, string> = {
      token: str(config, 'app_token'),
      user: str(config, 'user_key'),
      title: truncate(message.title, 250),
      message: truncate(toHtml(message.body), 1024),
      html: '1',
      priority: message.kind === 'resolved' ? '-1' : PRIORITY[message.severity],
      timestamp: String(Math.floor(Date.parse(message.at) / 1000)),
    };
    const url = str(config, 'url');
    if (url !== '') {
      form.url = url;
      form.url_title = 'Open Berth';
    }
    await post(`${trimBase(ctx.endpoints.pushoverApiUrl)}/1/messages.json`, { form }, ctx);
  },
};
