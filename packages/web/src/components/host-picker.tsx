/** The host a fleet-wide create or prune acts on (a host's own tab has its host). */
export function HostPicker({
  hosts,
  value,
  onChange,
}: {
  hosts: readonly { id: string; name: string }[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm text-slate-300">
      Host
      <select
        aria-label="Host"
        className="h-10 rounded-md border border-slate-700 bg-slate-900 px-2 text-slate-100 max-md:h-11"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {hosts.map((h) => (
          <option key={h.id} value={h.id}>
            {h.name}
          </option>
        ))}
      </select>
    </label>
  );
}
