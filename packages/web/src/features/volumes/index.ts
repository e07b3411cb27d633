export { VolumesPage } from './components/volumes-page';
