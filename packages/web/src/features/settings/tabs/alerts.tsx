import type { BlackoutWindow, GlobalSettings, TemplateKind } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { MoonStar, Pencil, Plus, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Segmented } from '@/components/ui/segmented';
import { Switch } from '@/components/ui/switch';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import {
  templatePreviewQueryOptions,
  templateVariablesQueryOptions,
} from '../api/notifications-api';
import { useSettings, useUpdateSettings } from '../api/settings-api';
import { SettingsSection } from '../components/setting-row';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const NEW_WINDOW: BlackoutWindow = {
  name: '',
  enabled: true,
  start_time: '22:00',
  end_time: '06:00',
  days: [0, 1, 2, 3, 4],
};

/** Settings → Alerts: blackout windows and alert message templates. */
export default function AlertsSettingsTab() {
  const settings = useSettings().data;
  if (settings === undefined) return <p className="text-sm text-slate-400">Loading…</p>;
  return (
    <div className="grid gap-6" data-testid="alerts-settings">
      <BlackoutWindows settings={settings} />
      <TemplatesEditor settings={settings} />
    </div>
  );
}

const daysText = (days: number[]) =>
  days.length === 7
    ? 'Every day'
    : [...days]
        .sort()
        .map((d) => DAYS[d])
        .join(', ');

type WindowDialog = { mode: 'edit'; index: number | null } | { mode: 'delete'; index: number };

function BlackoutWindows({ settings }: { settings: GlobalSettings }) {
  const update = useUpdateSettings();
  const windows = settings.blackout_windows;
  const [dialog, setDialog] = useState<WindowDialog | null>(null);
  const save = (next: BlackoutWindow[], failure: string, onDone?: () => void) =>
    update.mutate(
      { blackout_windows: next },
      { onSuccess: () => onDone?.(), onError: () => toast.error(failure) },
    );

  return (
    <SettingsSection title="Blackout windows">
      <p className="py-2 text-xs text-slate-400">
        During a blackout window alerts are still raised, but notifications are held; when it ends
        each channel gets one summary of what is still open. Times are in your time zone.
      </p>
      <ul className="divide-y divide-slate-800" data-testid="blackout-list">
        {windows.map((w, i) => (
          <li key={`${w.name}-${i}`} className="flex items-center gap-3 py-2 text-sm">
            <MoonStar className="h-4 w-4 text-slate-400" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-100">{w.name}</p>
              <p className="text-xs text-slate-500">
                {w.start_time}–{w.end_time} · {daysText(w.days)}
              </p>
            </div>
            <Switch
              label={`${w.name} active`}
              checked={w.enabled}
              onCheckedChange={(on) =>
                save(
                  windows.map((x, j) => (j === i ? { ...x, enabled: on } : x)),
                  'Failed to toggle blackout window',
                )
              }
            >
              <span className="w-14 text-xs text-slate-400">
                {w.enabled ? 'Active' : 'Inactive'}
              </span>
            </Switch>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Edit ${w.name}`}
              onClick={() => setDialog({ mode: 'edit', index: i })}
            >
              <Pencil className="h-4 w-4" />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Delete ${w.name}`}
              onClick={() => setDialog({ mode: 'delete', index: i })}
            >
              <Trash2 className="h-4 w-4" />
            </Button>
          </li>
        ))}
        {windows.length === 0 && (
          <li className="py-2 text-sm text-slate-500">No blackout windows</li>
        )}
      </ul>
      <div className="py-3">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setDialog({ mode: 'edit', index: null })}
        >
          <Plus className="h-4 w-4" /> Add blackout window
        </Button>
      </div>
      {dialog?.mode === 'edit' && (
        <WindowForm
          initial={dialog.index === null ? NEW_WINDOW : (windows[dialog.index] ?? NEW_WINDOW)}
          creating={dialog.index === null}
          busy={update.isPending}
          onClose={() => setDialog(null)}
          onSave={(w) => {
            const index = dialog.index;
            if (index === null)
              save([...windows, w], 'Failed to create blackout window', () => setDialog(null));
            else
              save(
                windows.map((x, j) => (j === index ? w : x)),
                'Failed to update blackout window',
                () => setDialog(null),
              );
          }}
        />
      )}
      {dialog?.mode === 'delete' && (
        <ConfirmDialog
          open
          danger
          title="Delete blackout window"
          description={`Delete the blackout window '${windows[dialog.index]?.name ?? ''}'?`}
          confirmLabel="Delete"
          busy={update.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={() =>
            save(
              windows.filter((_, j) => j !== dialog.index),
              'Failed to delete blackout window',
              () => setDialog(null),
            )
          }
        />
      )}
    </SettingsSection>
  );
}

function WindowForm({
  initial,
  creating,
  busy,
  onClose,
  onSave,
}: {
  initial: BlackoutWindow;
  creating: boolean;
  busy: boolean;
  onClose: () => void;
  onSave: (w: BlackoutWindow) => void;
}) {
  const [w, setW] = useState<BlackoutWindow>(initial);
  const valid = w.name.trim() !== '' && w.days.length > 0;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={creating ? 'Add blackout window' : 'Edit blackout window'}
    >
      <form
        className="grid gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSave({ ...w, name: w.name.trim() });
        }}
      >
        <label className="grid gap-1">
          <span className="text-slate-300">Name</span>
          <Input
            value={w.name}
            placeholder="Nightly maintenance"
            onChange={(e) => setW({ ...w, name: e.target.value })}
          />
        </label>
        <div className="flex gap-3">
          <label className="grid flex-1 gap-1">
            <span className="text-slate-300">Start</span>
            <Input
              type="time"
              aria-label="Start time"
              value={w.start_time}
              onChange={(e) => setW({ ...w, start_time: e.target.value })}
            />
          </label>
          <label className="grid flex-1 gap-1">
            <span className="text-slate-300">End</span>
            <Input
              type="time"
              aria-label="End time"
              value={w.end_time}
              onChange={(e) => setW({ ...w, end_time: e.target.value })}
            />
          </label>
        </div>
        <fieldset className="grid gap-1">
          <legend className="mb-1 text-slate-300">Days</legend>
          <div className="flex flex-wrap gap-2">
            {DAYS.map((label, d) => (
              <label key={label} className="flex items-center gap-1 text-slate-200">
                <input
                  type="checkbox"
                  checked={w.days.includes(d)}
                  onChange={(e) =>
                    setW({
                      ...w,
                      days: e.target.checked
                        ? [...w.days, d].sort()
                        : w.days.filter((x) => x !== d),
                    })
                  }
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {w.start_time > w.end_time && (
          <p className="text-xs text-slate-500">
            Runs across midnight: it ends at {w.end_time} on the next day.
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const TEMPLATE_KEYS = {
  default: 'alert_template',
  metric: 'alert_template_metric',
  state_change: 'alert_template_state_change',
  health: 'alert_template_health',
  update: 'alert_template_update',
} as const satisfies Record<TemplateKind, keyof GlobalSettings>;
const TEMPLATE_LABELS: Record<TemplateKind, string> = {
  default: 'Default',
  metric: 'Metric',
  state_change: 'State change',
  health: 'Health',
  update: 'Update',
};
type Drafts = Record<TemplateKind, string>;
const kinds = Object.keys(TEMPLATE_KEYS) as TemplateKind[];
const savedOf = (s: GlobalSettings): Drafts =>
  Object.fromEntries(kinds.map((k) => [k, s[TEMPLATE_KEYS[k]] ?? ''])) as Drafts;

function TemplatesEditor({ settings }: { settings: GlobalSettings }) {
  const update = useUpdateSettings();
  const saved = savedOf(settings);
  const [drafts, setDrafts] = useState<Drafts>(saved);
  const [kind, setKind] = useState<TemplateKind>('default');
  const vars = useQuery(templateVariablesQueryOptions()).data;
  const dirty = kinds.some((k) => drafts[k] !== saved[k]);
  const builtIn = vars?.default_templates[kind] ?? '';
  const shown = drafts[kind] === '' ? builtIn : drafts[kind];
  const settled = useDebouncedValue(shown, 300);
  const preview = useQuery({
    ...templatePreviewQueryOptions({ template: settled, kind }),
    enabled: settled !== '',
  });

  const save = () =>
    update.mutate(
      Object.fromEntries(kinds.map((k) => [TEMPLATE_KEYS[k], drafts[k] === '' ? null : drafts[k]])),
      {
        onSuccess: () => toast.success('Alert templates saved'),
        onError: () => toast.error('Failed to save alert templates'),
      },
    );

  return (
    <SettingsSection title="Alert message templates">
      <p className="py-2 text-xs text-slate-400">
        A rule&apos;s own template comes first, then the template of its kind, then the default one.
        Blank uses the built-in text. Lines whose variables are all empty are left out.
      </p>
      <div className="flex flex-wrap items-center gap-3 py-2">
        <Segmented
          label="Template"
          value={kind}
          options={kinds.map((k) => ({
            value: k,
            label: `${TEMPLATE_LABELS[k]}${drafts[k] !== saved[k] ? ' •' : ''}`,
          }))}
          onChange={setKind}
        />
        {dirty && (
          <span className="text-xs font-medium text-amber-300" data-testid="templates-unsaved">
            Unsaved changes
          </span>
        )}
      </div>
      <textarea
        aria-label={`${TEMPLATE_LABELS[kind]} template`}
        className="min-h-48 w-full rounded-md border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-xs text-slate-100"
        value={drafts[kind]}
        placeholder={builtIn}
        onChange={(e) => setDrafts({ ...drafts, [kind]: e.target.value })}
      />
      <div className="flex flex-wrap gap-2 py-2">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setDrafts({ ...drafts, [kind]: '' })}
          disabled={drafts[kind] === ''}
        >
          <RotateCcw className="h-4 w-4" /> Reset to default
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setDrafts(Object.fromEntries(kinds.map((k) => [k, ''])) as Drafts)}
        >
          Reset all
        </Button>
        <Button size="sm" onClick={save} disabled={!dirty || update.isPending}>
          Save templates
        </Button>
      </div>
      <div className="grid gap-4 py-2 md:grid-cols-2">
        <div>
          <h3 className="mb-1 text-xs font-semibold text-slate-400 uppercase">Preview</h3>
          <pre
            className="rounded-md border border-slate-800 bg-slate-950 p-3 text-xs whitespace-pre-wrap text-slate-200"
            data-testid="template-preview"
          >
            {preview.data?.text ?? ''}
          </pre>
          {(preview.data?.unknown_variables.length ?? 0) > 0 && (
            <p className="mt-1 text-xs text-amber-300" data-testid="template-unknown">
              Unknown variables, kept as written: {preview.data?.unknown_variables.join(', ')}
            </p>
          )}
        </div>
        <div>
          <h3 className="mb-1 text-xs font-semibold text-slate-400 uppercase">Variables</h3>
          <ul className="grid gap-1 text-xs" data-testid="template-variables">
            {(vars?.variables ?? []).map((v) => (
              <li key={v.name}>
                <button
                  type="button"
                  className="font-mono text-sky-300 hover:underline"
                  title="Insert"
                  onClick={() => setDrafts({ ...drafts, [kind]: `${drafts[kind]}${v.name}` })}
                >
                  {v.name}
                </button>{' '}
                <span className="text-slate-500">{v.description}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </SettingsSection>
  );
}
