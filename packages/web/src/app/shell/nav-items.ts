import {
  Bell,
  Boxes,
  Layers,
  HardDrive,
  Network,
  FolderKanban,
  ClipboardList,
  History,
  LayoutDashboard,
  ScrollText,
  Server,
  Settings,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '../paths';

/** The sidebar entries, in their order on screen. */
export const NAV_ITEMS: { label: string; to: string; icon: LucideIcon }[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: LayoutDashboard },
  { label: 'Hosts', to: paths.hosts, icon: Server },
  { label: 'Containers', to: paths.containers, icon: Boxes },
  { label: 'Projects', to: paths.projects, icon: FolderKanban },
  { label: 'Images', to: paths.images, icon: Layers },
  { label: 'Volumes', to: paths.volumes, icon: HardDrive },
  { label: 'Networks', to: paths.networks, icon: Network },
  { label: 'Container Logs', to: paths.logs, icon: ScrollText },
  { label: 'Events', to: paths.events, icon: History },
  { label: 'Audit Log', to: paths.audit, icon: ClipboardList },
  { label: 'Alerts', to: paths.alerts, icon: Bell },
  { label: 'Settings', to: paths.settings, icon: Settings },
];

/** Screens that are not a sidebar entry of their own, by path. */
const OTHER_TITLES: Record<string, string> = { [paths.alertRules]: 'Alert Rules' };

/** The title of the screen at `pathname`, for the phone's top bar ('Berth' when unknown). */
export function pageTitleOf(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return OTHER_TITLES[path] ?? NAV_ITEMS.find((item) => item.to === path)?.label ?? 'Berth';
}
