import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import type { AgentWork } from './docker/index.js';
import type { AuditService } from './modules/audit/index.js';
import type { ContainersService } from './modules/containers/index.js';
import { createExecStore, ExecRecordings, ExecService } from './modules/exec/index.js';
import { ImagePulls, ImagesService } from './modules/images/index.js';
import type { MonitorService } from './modules/monitor/index.js';
import { ProjectsService } from './modules/projects/index.js';
import type { SettingsService } from './modules/settings/index.js';
import type { UpdatesService } from './modules/updates/index.js';

/**
 * What an operator works with on a host beyond its containers' power buttons: compose
 * projects, images and their pulls, and a shell in a container (decisions 040, 041, 043).
 * Volumes and networks need no service of their own here: their routes ask the fleet.
 */
export function createOperateServices({
  db,
  log,
  monitor,
  agentWork,
  containers,
  updates,
  settings,
  audit,
}: {
  db: Db;
  log: FastifyBaseLogger;
  monitor: MonitorService;
  agentWork: AgentWork;
  containers: ContainersService;
  updates: UpdatesService;
  settings: SettingsService;
  audit: AuditService;
}) {
  const projects = new ProjectsService({
    fleet: monitor,
    containers,
    updates,
    audit,
    log,
    files: {
      urlOf: (hostId) => monitor.urlOf(hostId),
      agentFor: (url) => agentWork.agentFor(url, 'compose-file'),
      readOnAgent: (agentId, req) => agentWork.composeFile(agentId, req),
    },
  });
  const images = new ImagesService(monitor);
  const imagePulls = new ImagePulls({
    images,
    credentialsFor: (registry) => updates.credentialsFor(registry),
    audit,
  });
  const execStore = createExecStore(db);
  const exec = new ExecService({ fleet: monitor, settings, audit, store: execStore, log });
  const execRecordings = new ExecRecordings(execStore, monitor, audit);
  return { projects, images, imagePulls, exec, execRecordings };
}

/**
 * Compose projects (grouped containers, whole-project actions, compose files); images per host
 * (list, inspect, remove, prune) and their pulls with progress; container shells.
 */
export type OperateServices = ReturnType<typeof createOperateServices>;
