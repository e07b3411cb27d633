import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';

interface Props {
  label: string;
  /** PEM text chosen in this dialog, or null when none was chosen. */
  value: string | null;
  onChange: (pem: string | null) => void;
  /** Edit mode on a secure host: the stored certificate stays unless replaced. */
  stored: boolean;
}

/** One certificate upload: a PEM file read as text, or 'Uploaded' with Replace. */
export function CertificateField({ label, value, onChange, stored }: Props) {
  const id = useId();
  const [replacing, setReplacing] = useState(!stored);
  const read = async (file: File | undefined) =>
    onChange(file === undefined ? null : await file.text());
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {replacing ? (
        <input
          id={id}
          type="file"
          accept=".pem,.crt,.cer,.key,text/plain"
          onChange={(e) => void read(e.target.files?.[0])}
          className="block w-full text-sm text-slate-300 file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-3 file:py-2 file:text-slate-100 hover:file:bg-slate-700"
        />
      ) : (
        <div className="flex items-center gap-3">
          <span
            id={id}
            className="flex-1 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-sm text-emerald-300"
          >
            Uploaded
          </span>
          <Button size="sm" variant="secondary" onClick={() => setReplacing(true)}>
            Replace
          </Button>
        </div>
      )}
      {value !== null && (
        <p className="mt-1 text-xs text-slate-400">Loaded ({value.length} characters)</p>
      )}
    </div>
  );
}
