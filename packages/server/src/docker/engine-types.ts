// The Engine API's answers and bodies as Berth reads and writes them: plain types with the
// API's own (PascalCase) field names, whatever transport carried them. Only the fields Berth
// reads are named; the rest stays in the object untyped, so a container's configuration can
// be copied whole (an update's recreate) without Berth having to know every field.

/** GET /info, the fields Berth reads. */
export interface EngineInfo {
  /** The engine's machine name (a container's own hostname is its id). */
  Name?: string;
  NCPU?: number;
  MemTotal?: number;
  SystemTime?: string;
  OperatingSystem?: string;
  KernelVersion?: string;
  DockerRootDir?: string;
  OSType?: string;
  Architecture?: string;
}

/** GET /version; unchecked: another HTTP server may answer 200 with something else. */
export interface EngineVersion {
  Version?: unknown;
  ApiVersion?: unknown;
  Os?: unknown;
}

/** One entry of GET /containers/json?all=true. */
export interface ContainerSummary {
  Id: string;
  Names: string[];
  /** The image as configured, or its id when the tag has moved to another image. */
  Image: string;
  ImageID: string;
}

export interface HealthConfig {
  Test?: string[];
  [field: string]: unknown;
}

/** A container's Config (inspect) and the image's Config share these fields. */
export interface RunConfig {
  Env?: string[] | null;
  Cmd?: string[] | null;
  Entrypoint?: string[] | string | null;
  WorkingDir?: string;
  User?: string;
  Labels?: Record<string, string> | null;
  ExposedPorts?: Record<string, object> | null;
  Volumes?: Record<string, object> | null;
  Healthcheck?: HealthConfig;
  StopSignal?: string;
  Shell?: string[];
  [field: string]: unknown;
}

export interface ContainerConfig extends RunConfig {
  Image: string;
  Hostname: string;
  Domainname: string;
  StopTimeout?: number;
  MacAddress?: string;
}

export interface HostConfig {
  Binds?: string[] | null;
  Mounts?: { Target?: string }[] | null;
  NetworkMode?: string;
  RestartPolicy?: { Name?: string };
  AutoRemove?: boolean;
  [field: string]: unknown;
}

/** A container's endpoint in one network; the engine answers null for unset fields. */
export interface EndpointSettings {
  IPAddress?: string;
  IPAMConfig?: Record<string, unknown> | null;
  Aliases?: string[] | null;
  Links?: string[] | null;
  DriverOpts?: Record<string, string> | null;
  [field: string]: unknown;
}

export interface PortBinding {
  HostIp: string;
  HostPort: string;
}

export interface ContainerMount {
  Type: string;
  Name?: string;
  Source: string;
  Destination: string;
  RW: boolean;
}

export interface ContainerHealth {
  Status: string;
  Log: { Output: string }[];
}

/** GET /containers/{id}/json, the fields Berth reads. */
export interface ContainerDetails {
  Id: string;
  /** With the engine's leading slash. */
  Name: string;
  /** The id of the image the container runs. */
  Image: string;
  Created: string;
  RestartCount: number;
  State: {
    Status: string;
    Running: boolean;
    Paused: boolean;
    Restarting: boolean;
    ExitCode: number;
    Pid: number;
    StartedAt: string;
    FinishedAt: string;
    Health?: ContainerHealth;
  };
  Config: ContainerConfig;
  HostConfig: HostConfig;
  NetworkSettings: {
    IPAddress?: string;
    /** Unpublished ports map to null. */
    Ports: Record<string, PortBinding[] | null>;
    Networks: Record<string, EndpointSettings>;
  };
  Mounts: ContainerMount[];
}

/** GET /images/{name}/json, the fields Berth reads. */
export interface ImageDetails {
  Id: string;
  RepoDigests: string[];
  Config: RunConfig | null;
}

/** The body of POST /containers/create (`name` goes in the query). */
export interface ContainerCreateSpec {
  name: string;
  Image: string;
  HostConfig?: HostConfig;
  NetworkingConfig?: { EndpointsConfig: Record<string, EndpointSettings> };
  [field: string]: unknown;
}

/** One event of an image pull's progress stream. */
export interface PullEvent {
  id?: string;
  status?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

/** Credentials the engine sends to a registry for a pull. */
export interface RegistryAuth {
  username: string;
  password: string;
  serveraddress: string;
}

export interface ContainerLogsQuery {
  tail: number;
  /** Unix seconds. */
  since?: number | undefined;
}
