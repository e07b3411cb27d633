export { useLogout } from './api/auth-api';
export { AccountSettingsDialog } from './components/account-settings-dialog';
export { ChangePasswordDialog } from './components/change-password-dialog';
export { LoginPage } from './components/login-page';
