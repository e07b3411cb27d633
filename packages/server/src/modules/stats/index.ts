export { HostStatsCollector, type StatsSource } from './host-stats-collector.js';
export { SparklineSet } from './ring-buffer.js';
