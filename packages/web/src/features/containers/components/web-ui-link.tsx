import { cn } from '@/lib/cn';

/** The container's WebUI address, opening in a new tab. */
export function WebUiLink({ url, className }: { url: string; className?: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className={cn('text-sky-400 hover:underline', className)}
    >
      {url}
    </a>
  );
}
