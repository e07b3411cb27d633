import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';

/** One setting: its name and explanation on the left, its control on the right. */
export function SettingRow({
  label,
  htmlFor,
  description,
  children,
}: {
  label: string;
  /** The control's id, when the label should point at it. */
  htmlFor?: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-slate-800 py-4 last:border-b-0">
      <div className="min-w-0 flex-1 basis-72">
        {htmlFor === undefined ? (
          <p className="text-sm font-medium text-slate-100">{label}</p>
        ) : (
          <label htmlFor={htmlFor} className="text-sm font-medium text-slate-100">
            {label}
          </label>
        )}
        {description !== undefined && (
          <p className="mt-0.5 text-xs text-slate-400">{description}</p>
        )}
      </div>
      {/* On a phone the control wraps and shrinks to the row (a long URL breaks anywhere). */}
      <div className="flex shrink-0 items-center gap-2 max-md:max-w-full max-md:min-w-0 max-md:shrink max-md:flex-wrap max-md:[overflow-wrap:anywhere] max-md:[&>*]:max-w-full">
        {children}
      </div>
    </div>
  );
}

/** A setting typed as text, in a form that saves as a whole (a draft with Save). */
export function TextSettingRow(props: {
  id: string;
  label: string;
  description: string;
  value: string;
  type?: string;
  placeholder?: string;
  onChange: (v: string) => void;
  /** Beside the field: a note or a button of its own. */
  children?: ReactNode;
}) {
  return (
    <SettingRow label={props.label} htmlFor={props.id} description={props.description}>
      <Input
        id={props.id}
        fullWidth={false}
        className="w-72"
        type={props.type ?? 'text'}
        autoComplete="off"
        placeholder={props.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.children}
    </SettingRow>
  );
}

/** A setting switched on or off, in a form that saves as a whole. */
export function SwitchSettingRow(props: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <SettingRow label={props.label} description={props.description}>
      <Switch label={props.label} checked={props.checked} onCheckedChange={props.onChange}>
        <span className="sr-only">{props.label}</span>
      </Switch>
    </SettingRow>
  );
}

/** A titled group of settings. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="max-w-3xl rounded-xl border border-slate-800 bg-slate-900/60 px-5 py-2">
      <h2 className="pt-3 pb-1 text-sm font-semibold tracking-wide text-slate-300 uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A settings form's Discard (while it has changes) and Save buttons. */
export function DraftActions({
  dirty,
  saving,
  invalid = false,
  onDiscard,
  onSave,
}: {
  dirty: boolean;
  saving: boolean;
  /** A field is bad: Save waits until it is fixed. */
  invalid?: boolean;
  onDiscard: () => void;
  onSave: () => void;
}) {
  return (
    <div className="flex justify-end gap-2 py-3">
      {dirty && (
        <Button size="sm" variant="secondary" onClick={onDiscard}>
          Discard
        </Button>
      )}
      <Button size="sm" disabled={saving || !dirty || invalid} onClick={onSave}>
        {saving ? 'Saving…' : 'Save'}
      </Button>
    </div>
  );
}
