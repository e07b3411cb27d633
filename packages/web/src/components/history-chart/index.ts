export { HistoryPanel } from './history-panel';
export { HistoryChart } from './history-chart';
export { RangePicker } from './range-picker';
export {
  historyMarkersQueryOptions,
  metricsHistoryQueryOptions,
  useHistoryMarkers,
  useMetricsHistory,
  type HistoryTarget,
} from './history-queries';
export { CONTAINER_CHARTS, HOST_CHARTS, type ChartSpec } from './shape';
export type { Marker, MarkerTarget } from './markers';
export type { RangeChoice, TimeWindow } from './range';
