import type Docker from 'dockerode';
import type { ContainerCreateOptions, ContainerInspectInfo, ImageInspectInfo } from 'dockerode';

type Config = ContainerInspectInfo['Config'] & Record<string, unknown>;
type ImageConfig = ImageInspectInfo['Config'] & Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Entries of `values` the old image did not set itself (what the operator gave). */
function ownEntries(values: string[] | null | undefined, fromImage: string[] | null | undefined) {
  if (values === null || values === undefined) return undefined;
  const image = new Set(fromImage ?? []);
  return values.filter((v) => !image.has(v));
}

function ownRecord<T>(
  values: Record<string, T> | null | undefined,
  fromImage: Record<string, T> | null | undefined,
) {
  if (values === null || values === undefined) return undefined;
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(values)) if (!same(fromImage?.[k], v)) out[k] = v;
  return out;
}

/** A value the operator set, or undefined when it was the old image's default. */
const own = <T>(value: T, imageValue: unknown): T | undefined =>
  same(value, imageValue) ? undefined : value;

/**
 * Everything the old container was created with, for a new container of `image`: what the
 * operator set is kept (name, command, entrypoint, env, labels, ports, binds and mounts,
 * restart policy, resources, healthcheck, user, working dir, hostname, log config,
 * capabilities, devices, ...); what came from the old image's defaults is left out so the
 * new image's defaults apply (its PATH, version variables, labels, CMD). Anonymous volumes
 * are carried by name so their data follows. Networks beyond the first are returned to be
 * connected after create (older engines take one endpoint at create).
 */
export function buildCreateOptions(
  old: ContainerInspectInfo,
  oldImage: ImageInspectInfo | null,
  image: string,
): { options: ContainerCreateOptions; extraNetworks: [string, Docker.EndpointSettings][] } {
  const c = old.Config as Config;
  const ic = (oldImage?.Config ?? {}) as ImageConfig;
  const name = old.Name.replace(/^\//, '');
  const shortId = old.Id.slice(0, 12);
  const hostConfig = { ...(old.HostConfig as Record<string, unknown>) } as Docker.HostConfig &
    Record<string, unknown>;

  // Anonymous volumes (image VOLUME or `-v /path`): reuse them by name.
  const binds = [...(hostConfig.Binds ?? [])];
  const mounted = new Set<string>([
    ...binds.map((b) => b.split(':')[1] ?? ''),
    ...((hostConfig.Mounts ?? []) as { Target?: string }[]).map((m) => m.Target ?? ''),
  ]);
  for (const m of old.Mounts) {
    if (m.Type === 'volume' && m.Name !== undefined && !mounted.has(m.Destination)) {
      binds.push(`${m.Name}:${m.Destination}${m.RW ? '' : ':ro'}`);
    }
  }
  hostConfig.Binds = binds;

  // The engine answers null for unset endpoint fields.
  type LooseEndpoint = {
    Aliases?: string[] | null;
    IPAMConfig?: Docker.EndpointSettings['IPAMConfig'] | null;
    Links?: string[] | null;
    DriverOpts?: Record<string, string> | null;
  };
  const endpoints = old.NetworkSettings.Networks as Record<string, LooseEndpoint>;
  const networks = Object.entries(endpoints).map(([net, ep]): [string, Docker.EndpointSettings] => {
    const aliases = (ep.Aliases ?? []).filter((a) => a !== shortId && a !== old.Id);
    const settings: Docker.EndpointSettings & { DriverOpts?: Record<string, string> } = {};
    if (ep.IPAMConfig !== undefined && ep.IPAMConfig !== null) settings.IPAMConfig = ep.IPAMConfig;
    if (aliases.length > 0) settings.Aliases = aliases;
    if (ep.Links !== undefined && ep.Links !== null && ep.Links.length > 0)
      settings.Links = ep.Links;
    if (ep.DriverOpts !== undefined && ep.DriverOpts !== null) settings.DriverOpts = ep.DriverOpts;
    return [net, settings];
  });
  const mode = hostConfig.NetworkMode ?? 'default';
  const primaryName = mode === 'default' ? 'bridge' : mode;
  const primary = networks.find(([n]) => n === primaryName);
  const sharesNamespace = mode.startsWith('container:') || mode === 'host' || mode === 'none';
  const extraNetworks = sharesNamespace ? [] : networks.filter(([n]) => n !== primaryName);

  const hostname = c.Hostname === shortId || c.Hostname === '' ? undefined : c.Hostname;
  const options: ContainerCreateOptions = {
    name,
    Image: image,
    Hostname: sharesNamespace ? undefined : hostname,
    Domainname: c.Domainname || undefined,
    User: own(c.User, ic.User) || undefined,
    AttachStdin: c.AttachStdin,
    AttachStdout: c.AttachStdout,
    AttachStderr: c.AttachStderr,
    Tty: c.Tty,
    OpenStdin: c.OpenStdin,
    StdinOnce: c.StdinOnce,
    Env: ownEntries(c.Env, ic.Env),
    Cmd: own(c.Cmd, ic.Cmd) ?? undefined,
    Entrypoint: own(c.Entrypoint, ic.Entrypoint) ?? undefined,
    WorkingDir: own(c.WorkingDir, ic.WorkingDir) || undefined,
    Labels: ownRecord(c.Labels, ic.Labels as Record<string, string> | undefined),
    ExposedPorts: ownRecord(
      c.ExposedPorts as Record<string, object> | undefined,
      ic.ExposedPorts as Record<string, object> | undefined,
    ),
    Volumes: ownRecord(
      c.Volumes as Record<string, object> | undefined,
      ic.Volumes as Record<string, object> | undefined,
    ),
    Healthcheck: own<ContainerCreateOptions['Healthcheck']>(c.Healthcheck, ic.Healthcheck),
    StopSignal: own(c.StopSignal, ic.StopSignal) as string | undefined,
    StopTimeout: c.StopTimeout as number | undefined,
    Shell: own(c.Shell, ic.Shell) as string[] | undefined,
    MacAddress: (c as { MacAddress?: string }).MacAddress || undefined,
    HostConfig: hostConfig,
    NetworkingConfig:
      primary === undefined || sharesNamespace
        ? undefined
        : { EndpointsConfig: { [primary[0]]: primary[1] } },
  };
  const defined = Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as ContainerCreateOptions;
  return { options: defined, extraNetworks };
}
