import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The settings tabs, in their order on screen: the one place they are registered.
 * A tab's screen is the default export of `tabs/<id>.tsx`, loaded when the tab first shows;
 * until that file exists the tab shows its `empty` text. So a later feature fills a tab by
 * adding its file, without editing this list or another tab's file. A tab shows only to roles
 * that reach its `permission`: the caller's own view and keys for all, the rest for admins.
 */
export const SETTINGS_TABS = [
  {
    id: 'dashboard',
    permission: 'account',
    label: 'Dashboard',
    empty: 'Dashboard options are not available.',
  },
  {
    id: 'alerts',
    permission: 'admin',
    label: 'Alerts',
    empty: 'Blackout windows and alert message templates will be set here.',
  },
  {
    id: 'notifications',
    permission: 'admin',
    label: 'Notifications',
    empty:
      'Notification channels (Pushover, Telegram, Discord, Slack, Gotify, email) will be set up here.',
  },
  {
    id: 'updates',
    permission: 'admin',
    label: 'Container Updates',
    empty: 'The update check time, update policies and registry credentials will be set here.',
  },
  {
    id: 'integrations',
    permission: 'admin',
    label: 'Integrations',
    empty: 'Prometheus metrics and MQTT with Home Assistant discovery will be set up here.',
  },
  {
    id: 'api-keys',
    permission: 'account',
    label: 'API Keys',
    empty: 'API keys for scripts and other tools will be managed here.',
  },
  {
    id: 'security',
    permission: 'account',
    label: 'Security',
    empty: 'Two-factor sign-in and your sessions will be managed here.',
  },
  {
    id: 'users',
    permission: 'admin',
    label: 'Users',
    empty: 'Users and their roles will be managed here.',
  },
  {
    id: 'authentication',
    permission: 'admin',
    label: 'Authentication',
    empty: 'Single sign-on and two-factor requirements will be set here.',
  },
  {
    id: 'system',
    permission: 'admin',
    label: 'System',
    empty: 'System settings are not available.',
  },
] as const;

export type SettingsTabId = (typeof SETTINGS_TABS)[number]['id'];

export const DEFAULT_SETTINGS_TAB: SettingsTabId = 'dashboard';

export function isSettingsTab(value: string | null): value is SettingsTabId {
  return SETTINGS_TABS.some((tab) => tab.id === value);
}

const screens = import.meta.glob<{ default: ComponentType }>('./tabs/*.tsx');

/** Each tab's lazily loaded screen, or null while its file does not exist. */
export const TAB_SCREENS: Record<SettingsTabId, LazyExoticComponent<ComponentType> | null> =
  Object.fromEntries(
    SETTINGS_TABS.map(({ id }) => {
      const load = screens[`./tabs/${id}.tsx`];
      return [id, load === undefined ? null : lazy(load)];
    }),
  ) as Record<SettingsTabId, LazyExoticComponent<ComponentType> | null>;
