import { memo } from 'react';
import { seriesColor, useResolvedTheme } from '@/lib/theme';

const HEIGHT = 32;
const MIN_WIDTH = 60;

/**
 * A small line of recent values (height 32, minimum width 60). Plain SVG with a
 * viewBox, so it scales with its box and costs one path per update.
 */
export const Sparkline = memo(function Sparkline({
  values,
  max,
  color,
  label,
}: {
  values: readonly number[];
  /** Fixed top of the scale (100 for percentages); otherwise the largest value. */
  max?: number;
  color: string;
  label: string;
}) {
  const theme = useResolvedTheme();
  const top = max ?? Math.max(1, ...values);
  const step = values.length > 1 ? 100 / (values.length - 1) : 100;
  const points = values
    .map(
      (v, i) =>
        `${(i * step).toFixed(2)},${(HEIGHT - (Math.min(v, top) / top) * (HEIGHT - 2) - 1).toFixed(2)}`,
    )
    .join(' ');
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 100 ${HEIGHT}`}
      preserveAspectRatio="none"
      className="block w-full"
      style={{ height: HEIGHT, minWidth: MIN_WIDTH }}
    >
      {values.length > 1 && (
        <polyline
          points={points}
          fill="none"
          stroke={seriesColor(color, theme)}
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
        />
      )}
    </svg>
  );
});
