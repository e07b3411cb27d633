import { truncate } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post } from './http.js';

/** A Google Chat space webhook: text with Chat's own *bold*. */
export const googleChat: ChannelDriver = {
  type: 'google_chat',
  async send(config, message, ctx) {
    const text = message.body.replace(/\*\*([^*\n]+?)\*\*/g, '*$1*');
    await post(str(config, 'webhook_url'), { json: { text: truncate(text, 4000) } }, ctx);
  },
};
