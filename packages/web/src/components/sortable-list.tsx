import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { GripVertical } from 'lucide-react';
import type { ReactNode } from 'react';

/** A keyboard drag moves 25 px per arrow press. */
export const KEYBOARD_STEP_PX = 25;

const stepBy: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  const delta: Record<string, [number, number]> = {
    ArrowDown: [0, KEYBOARD_STEP_PX],
    ArrowUp: [0, -KEYBOARD_STEP_PX],
    ArrowRight: [KEYBOARD_STEP_PX, 0],
    ArrowLeft: [-KEYBOARD_STEP_PX, 0],
  };
  const move = delta[event.code];
  if (move === undefined) return undefined;
  event.preventDefault();
  return { x: currentCoordinates.x + move[0], y: currentCoordinates.y + move[1] };
};

function SortableItem({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: (handle: ReactNode) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  const handle = (
    <button
      type="button"
      aria-label={`Reorder ${label}`}
      className="cursor-grab rounded p-0.5 text-slate-600 hover:text-slate-300"
      {...attributes}
      {...listeners}
    >
      <GripVertical className="h-4 w-4" />
    </button>
  );
  return (
    <div
      ref={setNodeRef}
      style={{
        transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined,
        transition,
        zIndex: isDragging ? 10 : undefined,
        position: 'relative',
      }}
    >
      {children(handle)}
    </div>
  );
}

/** A vertical list reordered by dragging its handles, by pointer or keyboard. */
export function SortableList<T>({
  items,
  idOf,
  labelOf,
  onReorder,
  children,
}: {
  items: readonly T[];
  idOf: (item: T) => string;
  labelOf: (item: T) => string;
  onReorder: (ids: string[]) => void;
  children: (item: T, handle: ReactNode) => ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: stepBy }),
  );
  const ids = items.map(idOf);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over === null || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onReorder(arrayMove(ids, from, to));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {items.map((item) => (
          <SortableItem key={idOf(item)} id={idOf(item)} label={labelOf(item)}>
            {(handle) => children(item, handle)}
          </SortableItem>
        ))}
      </SortableContext>
    </DndContext>
  );
}
