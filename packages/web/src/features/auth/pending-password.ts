const KEY = 'berth.first-login-password';

/** The password typed at a first sign-in, kept for the forced change-password dialog only. */
export const pendingPassword = {
  set: (password: string) => sessionStorage.setItem(KEY, password),
  get: () => sessionStorage.getItem(KEY) ?? '',
  clear: () => sessionStorage.removeItem(KEY),
};
