import type { User } from '@berth/contracts';
import { ChevronsUpDown, LogOut, UserCog } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { AccountSettingsDialog, useLogout } from '@/features/auth';
import { cn } from '@/lib/cn';
import { paths } from '../paths';

/** The user menu: Account Settings and Logout. */
export function UserMenu({ user, collapsed }: { user: User; collapsed: boolean }) {
  const [accountOpen, setAccountOpen] = useState(false);
  const logout = useLogout();
  const navigate = useNavigate();
  const name = user.display_name ?? user.username;
  const signOut = () =>
    logout.mutate(undefined, { onSettled: () => void navigate(paths.login, { replace: true }) });
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label={user.username}
          className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm text-slate-200 hover:bg-slate-800"
        >
          <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-accent/20 font-semibold text-accent uppercase">
            {name.charAt(0)}
          </span>
          <span className={cn('min-w-0 flex-1 truncate', collapsed && 'sr-only')}>{name}</span>
          {!collapsed && <ChevronsUpDown className="h-4 w-4 text-slate-500" aria-hidden />}
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={() => setAccountOpen(true)}>
            <UserCog className="h-4 w-4" aria-hidden /> Account Settings
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={signOut}>
            <LogOut className="h-4 w-4" aria-hidden /> Logout
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {accountOpen && (
        <AccountSettingsDialog user={user} open={accountOpen} onOpenChange={setAccountOpen} />
      )}
    </>
  );
}
