import { parseTags } from './parse-tags';
import { hostPayloadSchema, type Host, type HostPayloadInput } from '@berth/contracts';
import { useState } from 'react';

export interface HostFormValues {
  name: string;
  url: string;
  tags: string;
  description: string;
  mtls: boolean;
  tls_ca: string | null;
  tls_cert: string | null;
  tls_key: string | null;
}

export type FieldErrors = Partial<Record<keyof HostFormValues | 'form', string>>;

const initialValues = (host: Host | null): HostFormValues => ({
  name: host?.name ?? '',
  url: host?.url ?? '',
  tags: host?.tags.join(', ') ?? '',
  description: host?.description ?? '',
  mtls:
    host?.security_status === 'secure' &&
    (host.url.startsWith('tcp://') || host.url.startsWith('https://')),
  tls_ca: null,
  tls_cert: null,
  tls_key: null,
});

/** The payload the API takes; certificates not chosen are sent as null (kept on edit). */
export function toPayload(v: HostFormValues): HostPayloadInput {
  const tls = v.mtls && !v.url.trim().startsWith('unix://');
  return {
    name: v.name,
    url: v.url,
    tags: parseTags(v.tags),
    description: v.description.trim() === '' ? null : v.description,
    tls_ca: tls ? v.tls_ca : null,
    tls_cert: tls ? v.tls_cert : null,
    tls_key: tls ? v.tls_key : null,
  };
}

/** Validates with the contracts' schema, so the dialog shows the server's own messages. */
export function validate(v: HostFormValues): FieldErrors {
  const parsed = hostPayloadSchema.safeParse(toPayload(v));
  const errors: FieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'form') as keyof FieldErrors;
      errors[field] ??= issue.message;
    }
  }
  return errors;
}

/** Form state of the add/edit host dialog. */
export function useHostForm(host: Host | null) {
  const [values, setValues] = useState(() => initialValues(host));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof HostFormValues>(key: K, value: HostFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => k !== key && k !== 'form')),
    );
  };
  return { values, errors, setErrors, set };
}
