import { Button } from './button';

/** A dialog form's last lines: its error, announced, then Cancel beside the submit button. */
export function FormFooter({
  error,
  onCancel,
  submit,
  pending,
}: {
  error: string | null;
  onCancel: () => void;
  submit: string;
  pending: boolean;
}) {
  return (
    <>
      {error !== null && (
        <p role="alert" className="text-red-300">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {submit}
        </Button>
      </div>
    </>
  );
}
