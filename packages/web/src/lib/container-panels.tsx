import { createContext, useContext } from 'react';

export type ContainerDetailTab =
  'info' | 'logs' | 'metrics' | 'shell' | 'events' | 'alerts' | 'updates' | 'health';

/**
 * Opens the container drawer (from host views) or the full detail dialog from
 * any screen, by composite key host_id:container_id. The app shell provides it with the
 * containers feature's panels, so other features need not import that feature.
 */
export interface ContainerPanels {
  openContainer: (
    key: string,
    options?: { view?: 'drawer' | 'detail'; tab?: ContainerDetailTab },
  ) => void;
}

export const ContainerPanelsContext = createContext<ContainerPanels>({
  openContainer: () => undefined,
});

export const useContainerPanels = () => useContext(ContainerPanelsContext);
