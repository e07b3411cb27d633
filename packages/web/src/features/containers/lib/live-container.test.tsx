import type { Container } from '@berth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable } from '@/components/data-table';
import { liveContainersQueryOptions, NO_CONTAINERS } from '@/lib/queries';
import { useLiveContainer } from './live-container';

const c = (id: string, cpu: number) =>
  ({ host_id: 'h1', id, name: `app-${id}`, state: 'running', cpu_percent: cpu }) as Container;
const col = createColumnHelper<Container>();
const columns = [
  col.accessor('name', { cell: ({ row }) => row.original.name }),
  col.accessor('cpu_percent', { id: 'cpu', cell: (info) => `cpu ${String(info.getValue())}` }),
];

let tableRenders = 0;
function Table({ data }: { data: Container[] }) {
  tableRenders++;
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel() });
  return <DataTable table={table} rowTestId={(r) => r.name} useLiveRecord={useLiveContainer} />;
}

afterEach(cleanup);

describe('a row that reads its record live', () => {
  it('shows the cached record, and follows it without the table drawing again', () => {
    const client = new QueryClient();
    const key = liveContainersQueryOptions().queryKey;
    const b = c('b', 2);
    const given = [c('a', 1), b];
    client.setQueryData(key, { ...NO_CONTAINERS, containers: [c('a', 10), b] });
    tableRenders = 0;
    render(
      <QueryClientProvider client={client}>
        <Table data={given} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('app-a').textContent).toContain('cpu 10');
    expect(screen.getByTestId('app-b').textContent).toContain('cpu 2');
    act(() => {
      client.setQueryData(key, { ...NO_CONTAINERS, containers: [c('a', 10), c('b', 77)] });
    });
    expect(screen.getByTestId('app-b').textContent).toContain('cpu 77');
    expect(screen.getByTestId('app-a').textContent).toContain('app-a');
    expect(tableRenders).toBe(1);
    // Gone from the cache (removed, not loaded yet): the record the table was given.
    act(() => {
      client.setQueryData(key, NO_CONTAINERS);
    });
    expect(screen.getByTestId('app-a').textContent).toContain('cpu 1');
  });
});

describe('a live record that changed', () => {
  it('redraws the cells that read a changed field, and the cells that say nothing', () => {
    const drawn: string[] = [];
    const counted = [
      col.accessor('name', {
        meta: { reads: ['name'] },
        cell: ({ row }) => (drawn.push(`name ${row.original.id}`), row.original.name),
      }),
      col.accessor('cpu_percent', {
        id: 'cpu',
        meta: { reads: ['cpu_percent'] },
        cell: (info) => (drawn.push(`cpu ${info.row.original.id}`), String(info.getValue())),
      }),
      col.display({
        id: 'free',
        cell: ({ row }) => (drawn.push(`free ${row.original.id}`), row.original.state),
      }),
    ];
    function Counted({ data }: { data: Container[] }) {
      // eslint-disable-next-line react-hooks/incompatible-library
      const table = useReactTable({ data, columns: counted, getCoreRowModel: getCoreRowModel() });
      return <DataTable table={table} rowTestId={(r) => r.name} useLiveRecord={useLiveContainer} />;
    }
    const client = new QueryClient();
    const key = liveContainersQueryOptions().queryKey;
    const a = c('a', 1);
    const given = [a, c('b', 2)];
    client.setQueryData(key, { ...NO_CONTAINERS, containers: given });
    render(
      <QueryClientProvider client={client}>
        <Counted data={given} />
      </QueryClientProvider>,
    );
    drawn.length = 0;
    act(() => {
      client.setQueryData(key, { ...NO_CONTAINERS, containers: [a, c('b', 5)] });
    });
    expect(screen.getByTestId('app-b').textContent).toContain('5');
    expect(drawn.sort()).toEqual(['cpu b', 'free b']);
  });
});
