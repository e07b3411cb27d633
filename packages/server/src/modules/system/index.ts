export { ReleaseFeedChecker, type ReleaseCheck } from './release-feed.js';
export { compareSemver, isNewerVersion } from './semver.js';
export { systemRoutes } from './system.routes.js';
export { readVersion } from './version.js';
