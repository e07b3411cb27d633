export { ImagesPage } from './components/images-page';
