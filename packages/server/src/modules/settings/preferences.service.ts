import {
  DEFAULT_PREFERENCES,
  MAX_PREFERENCES_BYTES,
  preferencesSchema,
  type Preferences,
  type PreferencesPatch,
} from '@berth/contracts';
import { HttpError } from '../../platform/http-errors.js';
import type { PreferencesStore } from './preferences.store.js';

/** Per-user preferences: defaults, partial updates, `dashboard` merged key by key. */
export class PreferencesService {
  constructor(private readonly store: PreferencesStore) {}

  async get(userId: number): Promise<Preferences> {
    return withDefaults(await this.store.read(userId));
  }

  async patch(userId: number, patch: PreferencesPatch): Promise<Preferences> {
    const stored = await this.get(userId);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const next: Preferences = {
      ...stored,
      ...defined,
      dashboard: { ...stored.dashboard, ...patch.dashboard },
    };
    const json = JSON.stringify(next);
    if (Buffer.byteLength(json) > MAX_PREFERENCES_BYTES) {
      throw new HttpError(
        413,
        `preferences: must be at most ${MAX_PREFERENCES_BYTES} bytes in all`,
      );
    }
    await this.store.write(userId, json, new Date().toISOString());
    return next;
  }
}

/** Stored fields that no longer validate are dropped, so an old document never breaks a user. */
function withDefaults(stored: unknown): Preferences {
  const result: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  if (typeof stored !== 'object' || stored === null) return DEFAULT_PREFERENCES;
  for (const [key, schema] of Object.entries(preferencesSchema.shape)) {
    const parsed = schema.safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) result[key] = parsed.data;
  }
  return result as Preferences;
}
