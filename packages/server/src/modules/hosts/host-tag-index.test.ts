import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../../platform/typed-emitter.js';
import type { HostEventMap, HostEvents, RegisteredHost } from './host-events.js';
import { HostTagIndex } from './host-tag-index.js';

const host = (id: string, tags: string[]): RegisteredHost => ({ id, name: id, url: 'x', tags });

describe('HostTagIndex', () => {
  it('follows hosts as they come, change and go', () => {
    const emitter = new TypedEmitter<HostEventMap>();
    const events: HostEvents = { on: (event, listener) => emitter.on(event, listener) };
    const index = new HostTagIndex([host('a', ['prod'])], events);
    expect(index.tagsOf('a')).toEqual(['prod']);
    // The index reads hosts only; an engine target is for the monitor.
    const target = undefined as unknown as HostEventMap['hostAdded']['target'];
    emitter.emit('hostAdded', { host: host('b', ['staging']), target });
    emitter.emit('hostChanged', { host: host('a', ['eu']), previous: host('a', ['prod']), target });
    expect(index.tagsOf('a')).toEqual(['eu']);
    expect(index.hostIds().sort()).toEqual(['a', 'b']);
    emitter.emit('hostRemoved', { host: host('b', ['staging']) });
    expect(index.tagsOf('b')).toEqual([]);
  });
});
