import { createContext, useContext, type ReactNode } from 'react';

/** A tab of the host modal that another feature draws (projects, images, volumes, networks). */
export interface HostTabSlot {
  value: string;
  label: string;
  render: (hostId: string) => ReactNode;
}

/**
 * The host modal's tabs from other features, in their order; the shell fills it, so the hosts
 * feature never imports them.
 */
export const HostTabSlots = createContext<readonly HostTabSlot[]>([]);

export const useHostTabSlots = () => useContext(HostTabSlots);
