import { createContext, useContext } from 'react';

/**
 * Opens the host drawer, the host detail modal or the host edit dialog from any screen.
 * The app shell provides it with the hosts feature's panels, so features need not import
 * each other.
 */
export interface HostPanels {
  /** The drawer, or the full modal when simplified workflow is on (or `expanded`). */
  openHost: (hostId: string, options?: { expanded?: boolean }) => void;
  editHost: (hostId: string) => void;
}

export const HostPanelsContext = createContext<HostPanels>({
  openHost: () => undefined,
  editHost: () => undefined,
});

export const useHostPanels = () => useContext(HostPanelsContext);
