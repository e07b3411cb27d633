import type {
  ContainerCreateSpec,
  ContainerDetails,
  EndpointSettings,
  HostConfig,
  ImageDetails,
  RunConfig,
} from '../../docker/index.js';

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
  old: ContainerDetails,
  oldImage: ImageDetails | null,
  image: string,
): { options: ContainerCreateSpec; extraNetworks: [string, EndpointSettings][] } {
  const c = old.Config;
  const ic: RunConfig = oldImage?.Config ?? {};
  const name = old.Name.replace(/^\//, '');
  const shortId = old.Id.slice(0, 12);
  const hostConfig: HostConfig = { ...old.HostConfig };

  // Anonymous volumes (image VOLUME or `-v /path`): reuse them by name.
  const binds = [...(hostConfig.Binds ?? [])];
  const mounted = new Set<string>([
    ...binds.map((b) => b.split(':')[1] ?? ''),
    ...(hostConfig.Mounts ?? []).map((m) => m.Target ?? ''),
  ]);
  for (const m of old.Mounts) {
    if (m.Type === 'volume' && m.Name !== undefined && !mounted.has(m.Destination)) {
      binds.push(`${m.Name}:${m.Destination}${m.RW ? '' : ':ro'}`);
    }
  }
  hostConfig.Binds = binds;

  // The engine answers null for unset endpoint fields.
  const endpoints = old.NetworkSettings.Networks;
  const networks = Object.entries(endpoints).map(([net, ep]): [string, EndpointSettings] => {
    const aliases = (ep.Aliases ?? []).filter((a) => a !== shortId && a !== old.Id);
    const settings: EndpointSettings = {};
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
  const options = {
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
    Labels: ownRecord(c.Labels, ic.Labels),
    ExposedPorts: ownRecord(c.ExposedPorts, ic.ExposedPorts),
    Volumes: ownRecord(c.Volumes, ic.Volumes),
    Healthcheck: own(c.Healthcheck, ic.Healthcheck),
    StopSignal: own(c.StopSignal, ic.StopSignal),
    StopTimeout: c.StopTimeout,
    Shell: own(c.Shell, ic.Shell),
    MacAddress: c.MacAddress || undefined,
    HostConfig: hostConfig,
    NetworkingConfig:
      primary === undefined || sharesNamespace
        ? undefined
        : { EndpointsConfig: { [primary[0]]: primary[1] } },
  };
  const defined = Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as ContainerCreateSpec;
  return { options: defined, extraNetworks };
}
