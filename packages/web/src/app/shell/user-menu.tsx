import type { User } from '@berth/contracts';
import { Check, ChevronsUpDown, LogOut, Monitor, Moon, Sun, UserCog } from 'lucide-react';
import { DropdownMenu as Radix } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { AccountSettingsDialog, useLogout } from '@/features/auth';
import { cn } from '@/lib/cn';
import {
  setThemeChoice,
  syncBrowserBar,
  THEME_CHOICES,
  useThemeChoice,
  type ThemeChoice,
} from '@/lib/theme';
import { paths } from '../paths';

const THEME_LABELS = {
  system: { label: 'System', Icon: Monitor },
  light: { label: 'Light', Icon: Sun },
  dark: { label: 'Dark', Icon: Moon },
} as const;

/**
 * The theme: System (the device's light or dark setting), Light or Dark, remembered in this
 * browser (lib/theme.ts). Choosing keeps the menu open, so the change can be seen and undone.
 */
function ThemeChoices() {
  const choice = useThemeChoice();
  // The saved choice also colours the browser's bar from the first signed-in screen on.
  useEffect(() => syncBrowserBar(choice), [choice]);
  return (
    <Radix.Group aria-label="Theme">
      <Radix.Label className="px-3 pt-1 pb-1 text-xs font-medium text-slate-500">Theme</Radix.Label>
      <Radix.RadioGroup
        value={choice}
        onValueChange={(value) => setThemeChoice(value as ThemeChoice)}
      >
        {THEME_CHOICES.map((value) => {
          const { label, Icon } = THEME_LABELS[value];
          return (
            <Radix.RadioItem
              key={value}
              value={value}
              onSelect={(e) => e.preventDefault()}
              className="flex min-h-9 cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-200 outline-none data-[highlighted]:bg-slate-800 data-[highlighted]:text-white"
            >
              <Icon className="h-4 w-4" aria-hidden /> {label}
              <Radix.ItemIndicator className="ml-auto">
                <Check className="h-4 w-4 text-accent" aria-hidden />
              </Radix.ItemIndicator>
            </Radix.RadioItem>
          );
        })}
      </Radix.RadioGroup>
    </Radix.Group>
  );
}

/** The user menu: Account Settings, the theme and Logout. */
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
          <DropdownMenuSeparator />
          <ThemeChoices />
          <DropdownMenuSeparator />
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
