// A separate entry so the shell can offer the host modal's tab without loading the page itself.
export { HostProjectsTab } from './components/host-projects-tab';
