import { Columns3 } from 'lucide-react';
import { SortableList } from '@/components/sortable-list';
import { Button } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';

export interface CustomizableColumn {
  id: string;
  label: string;
  visible: boolean;
}

/**
 * Reorder by dragging, show or hide each column, Reset, 'X of Y visible'; the
 * last visible column cannot be hidden. The selection column is fixed and not listed.
 */
export function ColumnsCustomizer({
  columns,
  onToggle,
  onReorder,
  onReset,
}: {
  columns: CustomizableColumn[];
  onToggle: (id: string, visible: boolean) => void;
  onReorder: (ids: string[]) => void;
  onReset: () => void;
}) {
  const visible = columns.filter((c) => c.visible).length;
  return (
    <Popover
      trigger={
        <Button variant="secondary" size="sm">
          <Columns3 className="h-4 w-4" /> Columns
        </Button>
      }
    >
      <div className="mb-2 flex items-center justify-between text-xs text-slate-400">
        <span data-testid="columns-visible">
          {visible} of {columns.length} visible
        </span>
        <Button variant="ghost" size="sm" onClick={onReset}>
          Reset
        </Button>
      </div>
      <SortableList
        items={columns}
        idOf={(c) => c.id}
        labelOf={(c) => c.label}
        onReorder={onReorder}
      >
        {(column, handle) => (
          <label className="flex items-center gap-2 rounded px-1 py-1 text-sm text-slate-200 hover:bg-slate-800">
            {handle}
            <input
              type="checkbox"
              aria-label={column.label}
              checked={column.visible}
              disabled={column.visible && visible === 1}
              onChange={(e) => onToggle(column.id, e.target.checked)}
            />
            {column.label}
          </label>
        )}
      </SortableList>
    </Popover>
  );
}
