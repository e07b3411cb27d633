// What the app shell shows from the settings feature, without loading the settings screen.
export { UpdateCard } from './components/update-card';
export { UpgradeNotice } from './components/upgrade-notice';
export { VersionLink } from './components/version-link';
export { useTimezoneSync } from './hooks/use-timezone-sync';
