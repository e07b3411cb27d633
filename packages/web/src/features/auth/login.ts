// The login screen alone, for the entry chunk: the feature's index also brings its dialogs.
export { LoginPage } from './components/login-page';
