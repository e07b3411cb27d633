import type { User } from '@berth/contracts';
import { Anchor, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { NavLink } from 'react-router';
import { UpdateCard, VersionLink } from '@/features/settings/shell';
import { cn } from '@/lib/cn';
import { LiveStatusIndicator } from './live-status';
import { useCan, useCanReadLogs } from '@/hooks/use-can';
import { paths } from '../paths';
import { NAV_ITEMS } from './nav-items';
import { UserMenu } from './user-menu';

interface SidebarProps {
  user: User;
  collapsed: boolean;
  onToggle: () => void;
  /** The update card and the version are not part of the first screen: read once it is drawn. */
  firstScreenSettled: boolean;
  /**
   * Drawn in the phone's navigation drawer: full width of the drawer, 44 px touch targets, the
   * toggle closes the drawer, and following a link calls `onNavigate` (to close it too).
   */
  drawer?: boolean;
  onNavigate?: () => void;
}

/** The toggle's look in the rail and in the drawer (a 44 px target there). */
const TOGGLE = {
  rail: 'rounded-md p-1.5 text-slate-400 hover:bg-slate-800 hover:text-white',
  drawer:
    'flex h-11 w-11 items-center justify-center rounded-md text-slate-400 hover:bg-slate-800 hover:text-white',
};

/** Navigation, live status, user menu and product version. */
export function Sidebar({
  user,
  collapsed,
  onToggle,
  firstScreenSettled,
  drawer = false,
  onNavigate,
}: SidebarProps) {
  // Logs can hold secrets: a viewer sees the page only when an admin allows it. Who did what
  // is for admins alone (the audit log's routes answer anyone else 403).
  const canReadLogs = useCanReadLogs();
  const isAdmin = useCan('admin');
  const navItems = NAV_ITEMS.filter(
    (item) => (canReadLogs || item.to !== paths.logs) && (isAdmin || item.to !== paths.audit),
  );
  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      className={
        drawer
          ? 'flex h-full w-full flex-col bg-slate-900'
          : cn(
              'flex h-full shrink-0 flex-col border-r border-slate-800 bg-slate-900/70 transition-[width] duration-200',
              collapsed ? 'w-16' : 'w-60',
            )
      }
    >
      <div
        className={cn(
          'flex h-14 items-center gap-2 border-b border-slate-800 px-3',
          collapsed && 'justify-center',
        )}
      >
        {!collapsed && (
          <span className="flex flex-1 items-center gap-2 font-semibold text-white">
            <Anchor className="h-5 w-5 text-accent" aria-hidden /> Berth
          </span>
        )}
        <button
          type="button"
          onClick={onToggle}
          aria-label={
            drawer ? 'Close navigation' : collapsed ? 'Expand sidebar' : 'Collapse sidebar'
          }
          className={drawer ? TOGGLE.drawer : TOGGLE.rail}
        >
          {drawer ? (
            <X className="h-5 w-5" />
          ) : collapsed ? (
            <PanelLeftOpen className="h-4 w-4" />
          ) : (
            <PanelLeftClose className="h-4 w-4" />
          )}
        </button>
      </div>
      <nav className="flex-1 space-y-1 p-2" aria-label="Main">
        {navItems.map(({ label, to, icon: Icon }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/' || to === '/alerts'}
            title={collapsed ? label : undefined}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-md py-2 text-sm font-medium transition-colors',
                collapsed ? 'justify-center px-0' : 'px-3',
                drawer && 'min-h-11',
                isActive
                  ? 'bg-accent/15 text-accent'
                  : 'text-slate-300 hover:bg-slate-800 hover:text-white',
              )
            }
          >
            <Icon className="h-4 w-4 shrink-0" aria-hidden />
            <span className={cn(collapsed && 'sr-only')}>{label}</span>
          </NavLink>
        ))}
      </nav>
      {/* In the drawer the footer's links and buttons (update card, version) are 44 px tall. */}
      <div
        className={cn(
          'space-y-1 border-t border-slate-800 p-2',
          drawer && '[&_:is(a,button)]:min-h-11',
        )}
      >
        <LiveStatusIndicator collapsed={collapsed} />
        <UpdateCard collapsed={collapsed} enabled={!user.is_first_login && firstScreenSettled} />
        <UserMenu user={user} collapsed={collapsed} />
        <VersionLink collapsed={collapsed} enabled={firstScreenSettled} />
      </div>
    </aside>
  );
}
