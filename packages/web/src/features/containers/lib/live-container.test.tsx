import type { Container } from '@berth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
