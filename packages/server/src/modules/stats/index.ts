export {
  HostStatsCollector,
  type RemoteFileSamples,
  type StatsOrigin,
  type StatsSource,
} from './host-stats-collector.js';
export { SparklineSet } from './ring-buffer.js';
export type { ContainerStats, RawSample } from './stats-sample.js';
export { samplesFromAgent } from './agent-samples.js';
