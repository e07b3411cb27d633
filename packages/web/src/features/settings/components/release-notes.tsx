import changelog from '../../../../../../CHANGELOG.md?raw';
import { changelogBlocks, parseChangelog } from '../lib/changelog';

const ENTRIES = parseChangelog(changelog);

/** Text with `code` spans. */
function Inline({ text }: { text: string }) {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
      <code key={i} className="rounded bg-slate-800 px-1 text-xs text-slate-200">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}

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
              <li key={j}>
                <Inline text={item} />
              </li>
            ))}
          </ul>
        ) : (
          <p key={i}>
            <Inline text={block.text} />
          </p>
        ),
      )}
    </div>
  );
}
