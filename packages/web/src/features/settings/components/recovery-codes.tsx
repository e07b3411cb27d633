import { Copy, Download } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';

/** Recovery codes, shown once: copy or download them before this view closes. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join('\n');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => toast.success('Recovery codes copied'),
      () => toast.error('Copying failed; select the codes and copy them by hand'),
    );
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'berth-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-300">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your
        authenticator; they are not shown again.
      </p>
      <ul
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg border border-slate-800 bg-slate-950 p-3 font-mono text-sm text-slate-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={copy}>
          <Copy className="h-4 w-4" /> Copy
        </Button>
        <Button size="sm" variant="secondary" onClick={download}>
          <Download className="h-4 w-4" /> Download
        </Button>
      </div>
    </div>
  );
}
