/** Every route of the app (spec 1 §2), in one place. */
export const paths = {
  login: '/login',
  dashboard: '/',
  hosts: '/hosts',
  containers: '/containers',
  logs: '/logs',
  events: '/events',
  alerts: '/alerts',
  alertRules: '/alerts/rules',
  settings: '/settings',
} as const;
