import { globalSettingsSchema } from '@berth/contracts';
import { api } from '@/lib/api-client';

/** Tells the server the browser's offset in minutes east of UTC; failures are ignored. */
export async function syncTimezoneOffset(): Promise<void> {
  try {
    await api('/settings', globalSettingsSchema, {
      method: 'PUT',
      body: { timezone_offset: -new Date().getTimezoneOffset() },
    });
  } catch {
    // spec 1 §2: failures of this sync are ignored
  }
}
