// A separate entry so the app shell can hold the host panels without pulling the hosts page
// into every screen's first load.
export { HostPanelsProvider } from './components/host-panels-provider';
