export { NetworksPage } from './components/networks-page';
