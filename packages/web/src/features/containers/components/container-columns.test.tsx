import { containerScopeId, type Alert, type Container } from '@berth/contracts';
import { createTable, flexRender, getCoreRowModel } from '@tanstack/react-table';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { containerKeyOf } from '@berth/contracts';
import { containerColumns, type RowActions } from './container-columns';

/** Every field set (no nulls), so each can be changed by its type. */
const base: Container = {
  host_id: 'h1',
  host_name: 'edge',
  id: 'abc123abc123',
  short_id: 'abc123abc123',
  name: 'web',
  image: 'nginx:1',
  state: 'running',
  status: 'Up 2 hours',
  health: 'healthy',
  exit_code: 0,
  created: '2026-11-01T10:00:00Z',
  started_at: '2026-11-01T10:00:01Z',
  restart_policy: 'always',
  ports: ['0.0.0.0:8080:80/tcp'],
  volumes: ['/data:/data'],
  env: { A: '1' },
  labels: { l: 'v' },
  tags: ['prod', 'edge', 'web', 'extra'],
  auto_restart: true,
  desired_state: 'should_run',
  web_ui_url: 'http://edge:8080',
  auto_update_enabled: true,
  floating_tag_mode: 'minor',
  cpu_percent: 12.5,
  memory_usage: 50_000_000,
  memory_limit: 100_000_000,
  memory_percent: 50,
  network_rx: 1000,
  network_tx: 2000,
  net_bytes_per_sec: 300,
};

function changed(value: unknown): unknown {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [...(value as unknown[]), 'more'];
  return { ...(value as object), more: 'x' };
}

const actions = (c: Container): RowActions => ({
  act: () => undefined,
  open: () => undefined,
  busy: false,
  withUpdates: new Set([containerKeyOf(c)]),
  healthChecks: {
    [containerKeyOf(c)]: { enabled: true, current_status: 'unhealthy', consecutive_failures: 2 },
  } as unknown as RowActions['healthChecks'],
  openAlerts: new Map([
    [containerScopeId(c.host_id, c.name), [{ severity: 'critical' } as unknown as Alert]],
  ]),
});

/** Each cell's column, the fields it says it reads, and its markup, drawn as the table draws it. */
function cellsOf(record: Container, withActionsOf: Container) {
  const table = createTable<Container>({
    data: [record],
    columns: containerColumns(actions(withActionsOf)),
    getCoreRowModel: getCoreRowModel(),
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  });
  table.setOptions((options) => ({ ...options, state: table.initialState }));
  const cells = table.getRowModel().rows[0]?.getVisibleCells() ?? [];
  return cells.map((cell) => ({
    id: cell.column.id,
    reads: cell.column.columnDef.meta?.reads,
    html: renderToStaticMarkup(
      <MemoryRouter>{flexRender(cell.column.columnDef.cell, cell.getContext())}</MemoryRouter>,
    ),
  }));
}

describe('container columns', () => {
  it('say which fields each cell reads', () => {
    const cells = cellsOf(base, base);
    expect(cells.length).toBeGreaterThan(10);
    for (const cell of cells) expect(cell.reads, cell.id).toBeDefined();
  });

  // A live message redraws only the cells whose `reads` changed: a cell that drew from any
  // other field would be left showing an old value.
  for (const start of [base, { ...base, state: 'exited' as const, started_at: null }]) {
    it(`draw the same when a field they do not read changes (${start.state})`, () => {
      const before = cellsOf(start, start);
      for (const field of Object.keys(start) as (keyof Container)[]) {
        if (start[field] === null) continue;
        const after = cellsOf({ ...start, [field]: changed(start[field]) }, start);
        before.forEach((cell, i) => {
          if (cell.reads?.includes(field) === true) return;
          expect(after[i]?.html, `${cell.id} changed with ${field}`).toBe(cell.html);
        });
      }
    });
  }
});
