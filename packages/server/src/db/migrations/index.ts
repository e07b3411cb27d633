import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-hosts-events-container-settings.js';
import * as m0003 from './0003-alerts-container-updates.js';
import * as m0004 from './0004-batch-jobs.js';
import * as m0005 from './0005-container-auto-update.js';
import * as m0006 from './0006-events-search.js';
import * as m0008 from './0008-alert-rules.js';
import * as m0009 from './0009-upgrade-notice.js';
import * as m0010 from './0010-health-checks.js';
import * as m0011 from './0011-image-updates.js';
import * as m0012 from './0012-container-last-seen.js';
import * as m0013 from './0013-notifications.js';
import * as m0014 from './0014-alert-indexes.js';
import * as m0015 from './0015-events-search-partitions.js';
import * as m0016 from './0016-agents.js';
import * as m0017 from './0017-agent-connections.js';
import * as m0018 from './0018-api-keys.js';
import * as m0019 from './0019-audit-log.js';
import * as m0020 from './0020-user-roles.js';
import * as m0021 from './0021-sessions-and-scopes.js';
import * as m0022 from './0022-single-sign-on.js';
import * as m0023 from './0023-two-factor.js';
import * as m0024 from './0024-container-states.js';
import * as m0025 from './0025-metrics-history.js';
import * as m0026 from './0026-look-back-rules.js';
import * as m0027 from './0027-terminal.js';

/**
 * Every migration, keyed by name; names sort in the order they apply.
 * Listed in code (not read from a folder) so the build and tests need no file scanning.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-hosts-events-container-settings': m0002,
  '0003-alerts-container-updates': m0003,
  '0004-batch-jobs': m0004,
  '0005-container-auto-update': m0005,
  '0006-events-search': m0006,
  '0008-alert-rules': m0008,
  '0009-upgrade-notice': m0009,
  '0010-health-checks': m0010,
  '0011-image-updates': m0011,
  '0012-container-last-seen': m0012,
  '0013-notifications': m0013,
  '0014-alert-indexes': m0014,
  '0015-events-search-partitions': m0015,
  '0016-agents': m0016,
  '0017-agent-connections': m0017,
  '0018-api-keys': m0018,
  '0019-audit-log': m0019,
  '0020-user-roles': m0020,
  '0021-sessions-and-scopes': m0021,
  '0022-single-sign-on': m0022,
  '0023-two-factor': m0023,
  '0024-container-states': m0024,
  '0025-metrics-history': m0025,
  '0026-look-back-rules': m0026,
  '0027-terminal': m0027,
};
