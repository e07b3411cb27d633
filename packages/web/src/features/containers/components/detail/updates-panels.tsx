import {
  CHANGELOG_URL_EXAMPLE,
  REGISTRY_URL_EXAMPLE,
  type Container,
  type UpdateStatus,
} from '@berth/contracts';
import { ExternalLink, Pencil, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useSaveUpdateConfig } from '../../api/updates-api';

/** The Current Image and Latest Available panels. */
export function ImagePanel({
  title,
  image,
  digest,
  testId,
}: {
  title: string;
  image: string;
  digest: string | null;
  testId: string;
}) {
  return (
    <section className="rounded-lg border border-slate-800 p-4" data-testid={testId}>
      <h3 className="mb-1 font-semibold text-slate-200">{title}</h3>
      <p className="font-mono break-all text-slate-100">{image}</p>
      <p className="mt-1 font-mono text-xs break-all text-slate-500">
        {digest === null ? 'No digest' : digest.slice(0, 19)}
      </p>
    </section>
  );
}

/** A changelog or registry page link, auto-detected or set by hand. */
export function LinkRow({
  container: c,
  status,
  kind,
}: {
  container: Container;
  status: UpdateStatus;
  kind: 'changelog' | 'registry';
}) {
  const save = useSaveUpdateConfig(c);
  const [draft, setDraft] = useState<string | null>(null);
  const isChangelog = kind === 'changelog';
  const url = isChangelog ? status.changelog_url : status.registry_page_url;
  const manual = (isChangelog ? status.changelog_source : status.registry_page_source) === 'manual';
  const label = isChangelog ? 'Changelog URL' : 'Docker Registry URL';
  const example = isChangelog ? CHANGELOG_URL_EXAMPLE : REGISTRY_URL_EXAMPLE;
  const what = isChangelog ? 'Changelog' : 'Registry';

  const commit = () => {
    if (draft === null) return;
    const value = draft.trim();
    if (value !== '') {
      try {
        new URL(value);
      } catch {
        toast.error('Invalid URL format', {
          description: `Please enter a valid URL (e.g., ${example})`,
        });
        return;
      }
    }
    save.mutate(isChangelog ? { changelog_url: value } : { registry_page_url: value }, {
      onSuccess: () => {
        setDraft(null);
        toast.success(`${what} URL ${value === '' ? 'cleared' : 'saved'}`);
      },
      onError: (err) =>
        toast.error(`Failed to save ${isChangelog ? 'changelog' : 'registry'} URL`, {
          description: errorText(err),
        }),
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-2 py-1.5" data-testid={`link-${kind}`}>
      <span className="w-44 text-slate-400">{label}</span>
      {draft !== null ? (
        <>
          <Input
            aria-label={label}
            size="sm"
            className="min-w-64 flex-1"
            value={draft}
            placeholder={example}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit();
              if (e.key === 'Escape') setDraft(null);
            }}
          />
          <Button size="sm" onClick={commit} disabled={save.isPending}>
            Save
          </Button>
          <Button size="icon" variant="ghost" aria-label="Cancel" onClick={() => setDraft(null)}>
            <X className="h-4 w-4" />
          </Button>
        </>
      ) : (
        <>
          {url === null ? (
            <span className="text-slate-500">{isChangelog ? 'Not detected' : 'Not available'}</span>
          ) : (
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 break-all text-sky-400 hover:underline"
            >
              {url} <ExternalLink className="h-3 w-3" aria-hidden />
            </a>
          )}
          {url !== null && (
            <span
              className={cn(
                'rounded px-1.5 py-0.5 text-[10px] uppercase',
                manual ? 'bg-indigo-900 text-indigo-200' : 'bg-slate-800 text-slate-300',
              )}
            >
              {manual ? 'Manual' : 'Auto-detected'}
            </span>
          )}
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Edit ${label}`}
            onClick={() => setDraft(manual ? (url ?? '') : '')}
          >
            <Pencil className="h-3.5 w-3.5" />
          </Button>
        </>
      )}
    </div>
  );
}
