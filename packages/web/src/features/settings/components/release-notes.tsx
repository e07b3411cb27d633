import changelog from '../../../../../../CHANGELOG.md?raw';
import { changelogBlocks, parseChangelog } from '../lib/changelog';

const ENTRIES = parseChangelog(changelog);

/** What changed in one version, from the CHANGELOG.md bundled at build time. */
export function ReleaseNotes({ version }: { version: string }) {
  const entry = ENTRIES.find((e) => e.version === version.replace(/^v/, ''));
  if (entry === undefined)
    return <p className="text-sm text-slate-400">No release notes for version {version}.</p>;
  return (
    <div className="max-h-[60vh] space-y-3 overflow-y-auto pr-1 text-sm text-slate-300">
      {entry.date !== null && (
        <p className="text-xs text-slate-500">
          {/^\d{4}-\d{2}-\d{2}$/.test(entry.date) ? `Released ${entry.date}` : entry.date}
        </p>
      )}
      {changelogBlocks(entry.body).map((block, i) =>
        block.kind === 'heading' ? (
          <h3 key={i} className="pt-1 text-sm font-semibold text-white">
            {block.text}
          </h3>
        ) : block.kind === 'list' ? (
          <ul key={i} className="list-disc space-y-1 pl-5">
            {block.items.map((item, j) => (
              <li key={j}>{item}</li>
            ))}
          </ul>
        ) : (
          <p key={i}>{block.text}</p>
        ),
      )}
    </div>
  );
}
