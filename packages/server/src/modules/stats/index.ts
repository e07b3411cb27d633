export { HostStatsCollector, type StatsSource } from './host-stats-collector.js';
export { SparklineSet } from './ring-buffer.js';
export type { ContainerStats } from './stats-sample.js';
