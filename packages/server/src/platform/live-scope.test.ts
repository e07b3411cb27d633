import type { BerthEvent, LiveMessage } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LiveHub, type HostTags, type LiveClient } from './live-hub.js';

/** A socket that keeps what it was sent, and its close. */
function fakeSocket() {
  const sent: string[] = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    sent,
    closed: null as null | { code: number; reason: string },
    send: (payload: string) => sent.push(payload),
    on: () => undefined,
    close(code: number, reason: string) {
      this.closed = { code, reason };
    },
  };
  return socket;
}

const HOST_TAGS: Record<string, string[]> = { prod1: ['prod'], stage1: ['staging'], both: [] };
const log = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

function rig() {
  const hub = new LiveHub(log);
  hub.useHostTags((id) => HOST_TAGS[id] ?? []);
  const connect = (userId: number, hostTags: HostTags) => {
    const socket = fakeSocket();
    const client = hub.add(socket as unknown as WebSocket, `s${userId}`, {
      protocol: 2,
      containerSparklines: true,
      userId,
      hostTags,
    });
    return {
      socket,
      client,
      types: () => socket.sent.map((p) => (JSON.parse(p) as LiveMessage).type),
    };
  };
  return { hub, connect };
}

const statusOf = (hostId: string): LiveMessage => ({
  type: 'host_status_changed',
  data: { host_id: hostId, status: 'online', error: null },
});
const berthEvent: BerthEvent = {
  id: 1,
  timestamp: '2026-01-01T00:00:00Z',
  severity: 'info',
  category: 'system',
  event_type: 'x',
  title: 'x',
  message: null,
  host_id: null,
  host_name: null,
  container_id: null,
  container_name: null,
  old_state: null,
  new_state: null,
  correlation_id: null,
  triggered_by: null,
};
const jobUpdate: LiveMessage = {
  type: 'batch_job_update',
  data: {
    job_id: 'j',
    status: 'running',
    action: 'restart',
    total_items: 2,
    completed_items: 0,
    success_items: 0,
    error_items: 0,
    skipped_items: 0,
    created_at: '2026-01-01T00:00:00Z',
    completed_at: null,
  },
};

describe('live hub scopes', () => {
  it('sends a message about a host only to the clients whose scope reaches it', () => {
    const { hub, connect } = rig();
    const admin = connect(1, null);
    const prod = connect(2, new Set(['prod']));
    const staging = connect(3, new Set(['staging', 'qa']));
    hub.publish(statusOf('prod1'));
    hub.publish(statusOf('stage1'));
    hub.publish({ type: 'host_removed', data: { host_id: 'unknown-host' } });
    hub.publish({ type: 'blackout_status_changed', data: { is_blackout: true, window_name: 'x' } });
    hub.publish({ type: 'new_event', data: { ...berthEvent, host_id: null } });
    hub.publish({ type: 'new_event', data: { ...berthEvent, host_id: 'prod1' } });
    const hostsOf = (c: ReturnType<typeof connect>) =>
      c.socket.sent.map((p) => {
        const m = JSON.parse(p) as { type: string; data: { host_id?: string } };
        return `${m.type}:${m.data.host_id ?? '-'}`;
      });
    expect(hostsOf(admin)).toEqual([
      'host_status_changed:prod1',
      'host_status_changed:stage1',
      'host_removed:unknown-host',
      'blackout_status_changed:-',
      'new_event:-',
      'new_event:prod1',
    ]);
    // An event of no host is Berth's own: not a scoped user's, as in the REST lists.
    expect(hostsOf(prod)).toEqual([
      'host_status_changed:prod1',
      'blackout_status_changed:-',
      'new_event:prod1',
    ]);
    expect(hostsOf(staging)).toEqual(['host_status_changed:stage1', 'blackout_status_changed:-']);
  });

  it('sends a message naming no host of its own only where its publisher says', () => {
    const { hub, connect } = rig();
    const admin = connect(1, null);
    const prod = connect(2, new Set(['prod']));
    hub.publish(jobUpdate);
    hub.publish(jobUpdate, ['prod1']);
    hub.publish(jobUpdate, ['prod1', 'stage1']);
    expect(admin.socket.sent).toHaveLength(3);
    expect(prod.socket.sent).toHaveLength(1);
  });

  it('builds a message by form once per scope, the same tags in any order being one scope', () => {
    const { hub, connect } = rig();
    connect(1, null);
    connect(2, null);
    const a = connect(3, new Set(['prod', 'staging']));
    const b = connect(4, new Set(['staging', 'prod']));
    connect(5, new Set(['prod']));
    const built: string[] = [];
    hub.publishByForm(
      () => 'f',
      (_form, scope) => {
        built.push(scope?.key ?? 'all');
        return jobUpdate;
      },
    );
    expect(built).toEqual(['all', '["prod","staging"]', '["prod"]']);
    expect(a.socket.sent).toEqual(b.socket.sent);
  });

  it("applies a user's new scope to its open sockets, telling listeners only of a change", () => {
    const { hub, connect } = rig();
    const first = connect(2, new Set(['staging']));
    const second = connect(2, new Set(['staging']));
    const other = connect(3, new Set(['staging']));
    const told: LiveClient[] = [];
    hub.onRescope((c) => told.push(c));
    hub.userChanged(2, new Set(['staging']));
    expect(told).toEqual([]);
    // The same reach (a role change): no new state, but the browser reads its account again.
    expect(first.types()).toEqual(['account_changed']);
    expect(second.types()).toEqual(['account_changed']);
    hub.userChanged(2, new Set(['prod', 'staging']));
    expect(told).toEqual([first.client, second.client]);
    hub.publish(statusOf('prod1'));
    expect(first.types()).toEqual(['account_changed', 'account_changed', 'host_status_changed']);
    expect(other.types()).toEqual([]);
    hub.userChanged(2, null);
    expect(first.client.scope).toBeNull();
    hub.userChanged(2, 'gone');
    expect(first.socket.closed).toEqual({ code: 1008, reason: 'Account disabled' });
    expect(other.socket.closed).toBeNull();
  });

  it('tells listeners of every scoped client when what a tag reaches changes', () => {
    const { hub, connect } = rig();
    connect(1, null);
    const scoped = connect(2, new Set(['prod']));
    const told: LiveClient[] = [];
    hub.onRescope((c) => told.push(c));
    hub.reachChanged();
    expect(told).toEqual([scoped.client]);
  });
});
