// A separate entry so the app shell can hold the container panels without pulling the
// containers page into every screen's first load.
export { ContainerPanelsProvider } from './components/container-panels-provider';
