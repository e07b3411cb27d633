export { ContainersPage } from './components/containers-page';
