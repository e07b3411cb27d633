// A separate entry so the shell can offer the scoped table without loading the page itself.
export { ScopedContainers } from './components/scoped-containers';
