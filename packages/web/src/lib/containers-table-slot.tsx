import { createContext, useContext, type ReactNode } from 'react';

/**
 * Renders the containers table scoped to one host, for screens of other features (the host
 * modal's Containers tab). The shell fills it with the containers feature's view.
 */
export const ContainersTableSlot = createContext<((hostId: string) => ReactNode) | null>(null);

export const useContainersTableSlot = () => useContext(ContainersTableSlot);
