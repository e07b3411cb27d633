import { useQuery } from '@tanstack/react-query';
import { Bell, Menu } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { alertStatsQueryOptions } from '@/lib/queries';
import { paths } from '../paths';
import { pageTitleOf } from './nav-items';

const openCount = (stats: { by_state: { open: number } }) => stats.by_state.open;

/** Phones' bar above every screen: the navigation drawer's button, the title, the alert bell. */
export function PhoneTopBar({ onMenu }: { onMenu: () => void }) {
  const title = pageTitleOf(useLocation().pathname);
  // The dashboard's alert figures (every 5 s), so the bell and the KPI tile agree.
  const open = useQuery({ ...alertStatsQueryOptions(), select: openCount }).data ?? 0;
  const label = `Alerts: ${open} open`;
  return (
    <header
      data-testid="phone-top-bar"
      className="flex h-[calc(3.5rem+env(safe-area-inset-top))] shrink-0 items-center gap-1 border-b border-slate-800 bg-slate-900/70 px-1.5 pt-[env(safe-area-inset-top)]"
    >
      <button
        type="button"
        onClick={onMenu}
        aria-label="Open navigation"
        className="flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-300 hover:bg-slate-800 hover:text-white"
      >
        <Menu className="h-5 w-5" aria-hidden />
      </button>
      <span
        data-testid="phone-title"
        className="min-w-0 flex-1 truncate px-1 text-base font-semibold text-white"
      >
        {title}
      </span>
      <Link
        to={paths.alerts}
        aria-label={label}
        title={label}
        data-testid="alert-bell"
        className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-300 hover:bg-slate-800 hover:text-white"
      >
        <Bell className="h-5 w-5" aria-hidden />
        {open > 0 && (
          <span
            data-testid="alert-bell-count"
            className="absolute top-1 right-0.5 min-w-[1.125rem] rounded-full bg-red-600 px-1 text-center text-[0.6875rem] leading-[1.125rem] font-semibold text-white tabular-nums"
          >
            {open > 99 ? '99+' : open}
          </span>
        )}
      </Link>
    </header>
  );
}
