/** An inline error line; announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-900 bg-red-950/60 px-3 py-2 text-sm text-red-300"
    >
      {message}
    </p>
  );
}
