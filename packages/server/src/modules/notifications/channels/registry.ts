import type { NotificationChannelType } from '@berth/contracts';
import { discord } from './discord.js';
import type { ChannelDriver } from './driver.js';
import { gotify } from './gotify.js';
import { googleChat } from './google-chat.js';
import { mqtt } from './mqtt.js';
import { ntfy } from './ntfy.js';
import { pushover } from './pushover.js';
import { slack } from './slack.js';
import { smtp } from './smtp.js';
import { teams } from './teams.js';
import { telegram } from './telegram.js';
import { webPush } from './web-push.js';
import { webhook } from './webhook.js';

/** Every channel type's driver; a new type is a file and a line here. */
export const DRIVERS: Record<NotificationChannelType, ChannelDriver> = {
  telegram,
  discord,
  slack,
  pushover,
  gotify,
  smtp,
  webhook,
  ntfy,
  teams,
  google_chat: googleChat,
  mqtt,
  web_push: webPush,
};
