import type { Container, DesiredState } from '@berth/contracts';
import { useState } from 'react';
import { InfoRow } from '@/components/detail-section';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { usePhone } from '@/hooks/use-breakpoint';
import { useSetAutoRestart, useSetDesiredState } from '../api/container-settings-api';

/**
 * The value a control shows while its change is in flight: set in the event handler, so the
 * control never flips back for a frame, and a live update carrying the old value meanwhile
 * cannot undo it. Cleared when the server has answered (the cache then holds the truth).
 */
function useInFlight<V>() {
  const [value, setValue] = useState<{ v: V } | null>(null);
  return {
    value,
    start: (v: V) => setValue({ v }),
    done: () => setValue(null),
  };
}

/** The auto-restart switch, applied optimistically. */
export function AutoRestartSwitch({ container: c }: { container: Container }) {
  const autoRestart = useSetAutoRestart();
  const inFlight = useInFlight<boolean>();
  const checked = inFlight.value?.v ?? c.auto_restart;
  return (
    <Switch
      label="Auto-restart"
      checked={checked}
      onCheckedChange={(on) => {
        inFlight.start(on);
        autoRestart.mutate({ container: c, value: on }, { onSettled: inFlight.done });
      }}
    >
      {checked ? 'On' : 'Off'}
    </Switch>
  );
}

/** The desired-state selector, applied optimistically. */
export function DesiredStateSelect({ container: c }: { container: Container }) {
  const desired = useSetDesiredState();
  const inFlight = useInFlight<DesiredState>();
  const phone = usePhone();
  return (
    <Select
      aria-label="Desired state"
      size={phone ? 'touch' : 'md'}
      value={inFlight.value?.v ?? c.desired_state}
      onChange={(e) => {
        const value = e.target.value as DesiredState;
        inFlight.start(value);
        desired.mutate({ container: c, value }, { onSettled: inFlight.done });
      }}
    >
      <option value="unspecified">Unspecified</option>
      <option value="should_run">Should Run</option>
      <option value="on_demand">On-Demand</option>
    </Select>
  );
}

/** The auto-restart and desired-state rows of a container's label/value list. */
export function PolicyRows({ container: c }: { container: Container }) {
  return (
    <>
      <InfoRow label="Auto-restart">
        <AutoRestartSwitch container={c} />
      </InfoRow>
      <InfoRow label="Desired state">
        <DesiredStateSelect container={c} />
      </InfoRow>
    </>
  );
}
