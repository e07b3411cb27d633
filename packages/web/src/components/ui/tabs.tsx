import { Tabs as RadixTabs } from 'radix-ui';
import { useLayoutEffect, useRef, type ReactNode } from 'react';

export const Tabs = RadixTabs.Root;
export const TabsContent = RadixTabs.Content;

export function TabsList({ tabs }: { tabs: { value: string; label: string }[] }) {
  const list = useRef<HTMLDivElement>(null);
  // A strip wider than the screen scrolls the chosen tab into view (only sideways, never the
  // page), so a phone opened on the ninth tab shows which one it is.
  useLayoutEffect(() => {
    const strip = list.current;
    const active = strip?.querySelector<HTMLElement>('[data-state="active"]');
    if (strip == null || active == null || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = active.offsetLeft - (strip.clientWidth - active.offsetWidth) / 2;
  });
  return (
    // On a phone the tabs are a strip that scrolls sideways, each a 44 px target.
    <RadixTabs.List
      ref={list}
      data-testid="tab-strip"
      className="mb-4 flex gap-1 border-b border-slate-800 max-md:shrink-0 max-md:overflow-x-auto max-md:overscroll-x-contain max-md:[scrollbar-width:none]"
    >
      {tabs.map((tab) => (
        <RadixTabs.Trigger
          key={tab.value}
          value={tab.value}
          className="-mb-px border-b-2 border-transparent px-4 py-2 text-sm text-slate-400 hover:text-white data-[state=active]:border-accent data-[state=active]:text-white max-md:min-h-11 max-md:shrink-0 max-md:whitespace-nowrap"
        >
          {tab.label}
        </RadixTabs.Trigger>
      ))}
    </RadixTabs.List>
  );
}

export function TabPanel({ value, children }: { value: string; children: ReactNode }) {
  return <RadixTabs.Content value={value}>{children}</RadixTabs.Content>;
}
