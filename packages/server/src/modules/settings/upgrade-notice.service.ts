import type { UpgradeNotice } from '@berth/contracts';
import { isNewerVersion } from '../system/index.js';
import type { UpgradeNoticeStore } from './upgrade-notice.store.js';

/**
 * The upgrade notice: shown when the running version is newer than the one the
 * user last saw. A user's first look records the running version, so a first install (or the
 * first start with this feature) shows nothing; dismissing moves the user to the running one.
 */
export class UpgradeNoticeService {
  constructor(
    private readonly store: UpgradeNoticeStore,
    private readonly version: string,
  ) {}

  async get(userId: number): Promise<UpgradeNotice> {
    const seen = await this.store.read(userId);
    if (seen === null) {
      await this.store.recordFirst(userId, this.version, new Date().toISOString());
      return { version: this.version, show_notice: false };
    }
    return { version: this.version, show_notice: isNewerVersion(this.version, seen) };
  }

  async dismiss(userId: number): Promise<UpgradeNotice> {
    const seen = await this.store.read(userId);
    // A downgrade keeps the newer version as seen, so upgrading back shows nothing again.
    if (seen === null || isNewerVersion(this.version, seen)) {
      await this.store.write(userId, this.version, new Date().toISOString());
    }
    return { version: this.version, show_notice: false };
  }
}
