import type { AlertRule } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ListChecks, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { SeverityBadge } from '@/components/alert-badges';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { rulesQueryOptions, useRuleMutations } from '../api/rules-api';
import { KIND_LABEL } from '../lib/rule-draft';
import { RuleFormDialog } from './rule-form-dialog';

const DELETE_TEXT =
  'Are you sure you want to delete this rule? This action cannot be undone. Existing alerts created by this rule will remain.';

type Editing = { rule: AlertRule | null } | null;

/** The Alert Rules page: the rules, their toggle, edit and delete. */
export function AlertRulesPage() {
  const query = useQuery(rulesQueryOptions());
  const { toggle, remove } = useRuleMutations();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const [params, setParams] = useSearchParams();
  const rules = query.data?.rules ?? [];

  // ?ruleId= opens that rule in the editor, then leaves the address.
  const linked = params.get('ruleId');
  const [handled, setHandled] = useState<string | null>(null);
  if (linked !== null && query.data !== undefined && handled !== linked) {
    setHandled(linked);
    const rule = query.data.rules.find((r) => r.id === linked);
    if (rule !== undefined) setEditing({ rule });
  }
  useEffect(() => {
    if (linked === null || handled !== linked) return;
    if (query.data?.rules.some((r) => r.id === linked) === false)
      toast.error('That alert rule no longer exists');
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('ruleId');
        return next;
      },
      { replace: true },
    );
  }, [linked, handled, query.data, setParams]);

  // The switch follows the click at once; the cache takes over when the call settles.
  const [flipped, setFlipped] = useState<Readonly<Record<string, boolean>>>({});
  const onToggle = (rule: AlertRule, enabled: boolean) => {
    setFlipped((prev) => ({ ...prev, [rule.id]: enabled }));
    toggle.mutate(
      { id: rule.id, enabled },
      {
        onError: (err) => toast.error(errorText(err, 'Failed to toggle rule')),
        onSettled: () =>
          setFlipped((prev) =>
            Object.fromEntries(Object.entries(prev).filter(([id]) => id !== rule.id)),
          ),
      },
    );
  };
  const onDelete = () => {
    if (deleting === null) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.success('Rule deleted'),
      onError: (err) => toast.error(errorText(err, 'Failed to delete rule')),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <>
      <Link
        to="/alerts"
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-400 hover:text-white"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Alerts
      </Link>
      <PageHeader
        title="Alert Rules"
        subtitle="Conditions that raise alerts and notify your channels"
        actions={
          <Button size="sm" onClick={() => setEditing({ rule: null })}>
            <Plus className="h-4 w-4" aria-hidden />
            Create Rule
          </Button>
        }
      />
      {query.isError ? (
        <p className="text-sm text-red-300">{errorText(query.error, 'Failed to load rules')}</p>
      ) : query.isPending ? (
        <p className="text-sm text-slate-400">Loading rules…</p>
      ) : rules.length === 0 ? (
        <EmptyState icon={ListChecks} title="No alert rules configured">
          Create a rule to raise alerts when something goes wrong.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-800">
          <table className="w-full text-sm" data-testid="rules-table">
            <thead className="bg-slate-900/80 text-left text-xs tracking-wide text-slate-400 uppercase">
              <tr>
                <th className="px-4 py-2 font-medium">Enabled</th>
                <th className="px-4 py-2 font-medium">Name</th>
                <th className="px-4 py-2 font-medium">Scope</th>
                <th className="px-4 py-2 font-medium">Kind</th>
                <th className="px-4 py-2 font-medium">Severity</th>
                <th className="px-4 py-2 text-right font-medium">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800">
              {rules.map((r) => (
                <tr
                  key={r.id}
                  data-testid="rule-row"
                  className={cn('hover:bg-slate-800/40', !r.enabled && 'text-slate-500')}
                >
                  <td className="px-4 py-2">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-label={`Enable ${r.name}`}
                      checked={flipped[r.id] ?? r.enabled}
                      onChange={(e) => onToggle(r, e.target.checked)}
                    />
                  </td>
                  <td className="px-4 py-2">
                    {/* A long name (200 characters, maybe without a space) wraps anywhere
                        rather than pushing the actions off screen. */}
                    <div
                      className={cn('font-medium wrap-anywhere', r.enabled ? 'text-slate-100' : '')}
                    >
                      {r.name}
                    </div>
                    {r.description !== null && (
                      <div className="max-w-md truncate text-xs text-slate-500">
                        {r.description}
                      </div>
                    )}
                  </td>
                  <td className="px-4 py-2">
                    <span
                      className={cn(
                        'rounded px-1.5 py-0.5 text-xs capitalize',
                        r.scope === 'host'
                          ? 'bg-indigo-500/20 text-indigo-200'
                          : 'bg-teal-500/20 text-teal-200',
                      )}
                    >
                      {r.scope}
                    </span>
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap">{KIND_LABEL[r.kind]}</td>
                  <td className="px-4 py-2">
                    <SeverityBadge severity={r.severity} />
                  </td>
                  <td className="px-4 py-2">
                    <div className="flex justify-end gap-1">
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Edit ${r.name}`}
                        onClick={() => setEditing({ rule: r })}
                      >
                        <Pencil className="h-4 w-4" />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Delete ${r.name}`}
                        onClick={() => setDeleting(r)}
                      >
                        <Trash2 className="h-4 w-4" />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null && (
        <RuleFormDialog
          key={editing.rule?.id ?? 'new'}
          rule={editing.rule}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Rule"
        description={DELETE_TEXT}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
