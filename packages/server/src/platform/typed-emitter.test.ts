import { describe, expect, it } from 'vitest';
import { TypedEmitter } from './typed-emitter.js';

interface Events {
  added: { id: string };
  removed: { id: string };
}

describe('TypedEmitter', () => {
  it('hands each event to its own listeners until they unsubscribe', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    const off = emitter.on('added', (p) => seen.push(`added ${p.id}`));
    emitter.on('removed', (p) => seen.push(`removed ${p.id}`));
    emitter.emit('added', { id: 'a' });
    emitter.emit('removed', { id: 'b' });
    off();
    emitter.emit('added', { id: 'c' });
    expect(seen).toEqual(['added a', 'removed b']);
  });

  it('isolates a listener that throws: the others still hear the event', () => {
    const errors: unknown[] = [];
    const emitter = new TypedEmitter<Events>((err) => errors.push(err));
    const seen: string[] = [];
    emitter.on('added', () => {
      throw new Error('faulty subscriber');
    });
    emitter.on('added', (p) => seen.push(p.id));
    emitter.emit('added', { id: 'a' });
    expect(seen).toEqual(['a']);
    expect(errors).toHaveLength(1);
  });
});
