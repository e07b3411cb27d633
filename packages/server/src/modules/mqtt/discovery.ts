import {
  containerBase,
  containerStateTopic,
  hostStateTopic,
  level,
  statusTopic,
} from './topics.js';

// Home Assistant's MQTT discovery: each config is retained at
// <discovery_prefix>/<component>/<node_id>/<object_id>/config, where node_id names the device.
// Each container is a device (via its host's device) with sensors and three buttons, all
// available while Berth's status topic says online.

export interface DiscoveryMessage {
  topic: string;
  payload: Record<string, unknown>;
}

const ORIGIN = { name: 'Berth', support_url: 'https://github.com/berth' } as const;
const hostDeviceId = (hostId: string) => `berth_host_${level(hostId)}`;
const containerNode = (hostId: string, name: string) => `berth_${level(hostId)}_${level(name)}`;

function availability(prefix: string) {
  return [
    { topic: statusTopic(prefix), payload_available: 'online', payload_not_available: 'offline' },
  ];
}

/** The host as a device with its status, CPU and memory. */
export function hostDiscovery(
  discoveryPrefix: string,
  prefix: string,
  host: { id: string; name: string },
): DiscoveryMessage[] {
  const node = hostDeviceId(host.id);
  const device = {
    identifiers: [node],
    name: host.name,
    manufacturer: 'Berth',
    model: 'Docker engine',
  };
  const common = {
    device,
    origin: ORIGIN,
    availability: availability(prefix),
    state_topic: hostStateTopic(prefix, host.id),
  };
  const sensor = (object: string, extra: Record<string, unknown>): DiscoveryMessage => ({
    topic: `${discoveryPrefix}/sensor/${node}/${object}/config`,
    payload: {
      ...common,
      unique_id: `${node}_${object}`,
      object_id: `${node}_${object}`,
      ...extra,
    },
  });
  return [
    sensor('status', { name: 'Status', value_template: '{{ value_json.status }}' }),
    sensor('cpu', {
      name: 'CPU',
      unit_of_measurement: '%',
      state_class: 'measurement',
      value_template: '{{ value_json.cpu_percent }}',
    }),
    sensor('memory', {
      name: 'Memory',
      unit_of_measurement: '%',
      state_class: 'measurement',
      value_template: '{{ value_json.memory_percent }}',
    }),
    sensor('running', {
      name: 'Running containers',
      state_class: 'measurement',
      value_template: '{{ value_json.containers_running }}',
    }),
  ];
}

/** A container as a device: state, health, CPU, memory, update available, and its buttons. */
export function containerDiscovery(
  discoveryPrefix: string,
  prefix: string,
  c: { hostId: string; name: string; image: string },
): DiscoveryMessage[] {
  const node = containerNode(c.hostId, c.name);
  const device = {
    identifiers: [node],
    name: c.name,
    manufacturer: 'Berth',
    model: c.image,
    via_device: hostDeviceId(c.hostId),
  };
  const common = { device, origin: ORIGIN, availability: availability(prefix) };
  const state = { state_topic: containerStateTopic(prefix, c.hostId, c.name) };
  const entity = (
    component: string,
    object: string,
    extra: Record<string, unknown>,
  ): DiscoveryMessage => ({
    topic: `${discoveryPrefix}/${component}/${node}/${object}/config`,
    payload: {
      ...common,
      unique_id: `${node}_${object}`,
      object_id: `${node}_${object}`,
      ...extra,
    },
  });
  const command = `${containerBase(prefix, c.hostId, c.name)}/command`;
  const button = (action: string, icon: string) =>
    entity('button', action, {
      name: `${action.charAt(0).toUpperCase()}${action.slice(1)}`,
      command_topic: command,
      payload_press: action,
      icon,
    });
  return [
    entity('sensor', 'state', {
      ...state,
      name: 'State',
      value_template: '{{ value_json.state }}',
    }),
    entity('sensor', 'health', {
      ...state,
      name: 'Health',
      value_template: "{{ value_json.health if value_json.health else 'none' }}",
    }),
    entity('sensor', 'cpu', {
      ...state,
      name: 'CPU',
      unit_of_measurement: '%',
      state_class: 'measurement',
      value_template: '{{ value_json.cpu_percent if value_json.cpu_percent is not none else 0 }}',
    }),
    entity('sensor', 'memory', {
      ...state,
      name: 'Memory',
      unit_of_measurement: 'MiB',
      device_class: 'data_size',
      state_class: 'measurement',
      value_template: '{{ ((value_json.memory_bytes or 0) / 1048576) | round(0) }}',
    }),
    entity('binary_sensor', 'update', {
      ...state,
      name: 'Update available',
      device_class: 'update',
      value_template: "{{ 'ON' if value_json.update_available else 'OFF' }}",
    }),
    button('start', 'mdi:play'),
    button('stop', 'mdi:stop'),
    button('restart', 'mdi:restart'),
  ];
}
