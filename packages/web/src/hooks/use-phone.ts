import { useMediaQuery } from './use-media-query';

/** Phone widths: card lists, filter sheets and full-screen dialogs instead of tables. */
export const PHONE_QUERY = '(max-width: 767.98px)';

/** Whether the window is phone-wide (under 768 px). */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
