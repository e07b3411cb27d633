/** Every route of the app, in one place. */
export const paths = {
  login: '/login',
  dashboard: '/',
  hosts: '/hosts',
  containers: '/containers',
  projects: '/projects',
  images: '/images',
  volumes: '/volumes',
  networks: '/networks',
  logs: '/logs',
  events: '/events',
  audit: '/audit',
  alerts: '/alerts',
  alertRules: '/alerts/rules',
  settings: '/settings',
} as const;

/**
 * The feature folder each screen's chunk is built from, for preloading it beside the entry
 * (app/preload-screen.ts); the router imports the same folders.
 */
export const screenFeatures: Record<string, string> = {
  [paths.dashboard]: 'dashboard',
  [paths.hosts]: 'hosts',
  [paths.containers]: 'containers',
  [paths.projects]: 'projects',
  [paths.images]: 'images',
  [paths.volumes]: 'volumes',
  [paths.networks]: 'networks',
  [paths.logs]: 'logs',
  [paths.events]: 'events',
  [paths.audit]: 'audit',
  [paths.alerts]: 'alerts',
  [paths.alertRules]: 'alerts',
  [paths.settings]: 'settings',
};
