import webpush from 'web-push';
import type { SecretBox } from '../../platform/secret-box.js';
import type { VapidDetails } from './channels/driver.js';
import type { NotificationsStore } from './notifications.store.js';

/**
 * The contact push services see in Berth's signed requests. A self-hosted Berth has no
 * address of its own to give; a reserved domain says so without pointing at anyone.
 */
const SUBJECT = 'mailto:admin@berth.invalid';

/**
 * Berth's VAPID key pair, made at the first start and kept for good: every browser
 * subscription is bound to the public key, so a new pair would orphan them all.
 */
export async function loadVapid(
  store: NotificationsStore['vapid'],
  box: SecretBox,
): Promise<VapidDetails> {
  let stored = await store.read();
  if (stored === undefined) {
    const keys = webpush.generateVAPIDKeys();
    await store.insertIfAbsent({
      public_key: keys.publicKey,
      private_key_sealed: box.seal(keys.privateKey),
      created_at: new Date().toISOString(),
    });
    stored = await store.read();
    if (stored === undefined) throw new Error('the Web Push keys could not be stored');
  }
  return {
    subject: SUBJECT,
    publicKey: stored.public_key,
    privateKey: box.open(stored.private_key_sealed),
  };
}
