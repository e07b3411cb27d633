import type { GroupBy, ViewMode } from '@berth/contracts';
import { Segmented } from '@/components/ui/segmented';
import { Select } from '@/components/ui/select';

const VIEW_MODES: { value: ViewMode; label: string }[] = [
  { value: 'compact', label: 'Compact' },
  { value: 'standard', label: 'Standard' },
  { value: 'expanded', label: 'Expanded' },
];

/** Group by and view mode, at the top right of the dashboard. */
export function DashboardControls({
  groupBy,
  viewMode,
  onGroupBy,
  onViewMode,
}: {
  groupBy: GroupBy;
  viewMode: ViewMode;
  onGroupBy: (value: GroupBy) => void;
  onViewMode: (value: ViewMode) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <label className="flex items-center gap-2 text-sm text-slate-400">
        Group by
        <Select
          className="max-md:h-11"
          value={groupBy}
          onChange={(e) => onGroupBy(e.target.value === 'tag' ? 'tag' : 'none')}
        >
          <option value="none">None</option>
          <option value="tag">Tag</option>
        </Select>
      </label>
      <Segmented label="View mode" value={viewMode} options={VIEW_MODES} onChange={onViewMode} />
    </div>
  );
}
