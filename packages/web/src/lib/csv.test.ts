import { describe, expect, it } from 'vitest';
import type { BerthEvent } from '@berth/contracts';
import { csvCell, csvText } from './csv';
import { eventsCsv } from './events-csv';

describe('CSV cells', () => {
  it.each(['=', '+', '-', '@', '\t', '\r'])('a cell starting with %j opens as text', (c) => {
    expect(csvCell(`${c}1+1`)).toBe(`"'${c}1+1"`);
  });

  it('quotes every cell and doubles its quotes; other texts are kept as they are', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('a=b, -c @d')).toBe('"a=b, -c @d"');
    expect(csvCell(' =1')).toBe('" =1"');
    expect(csvCell('\n=1')).toBe('"\n=1"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell('')).toBe('""');
  });

  it('writes the header bare and every row cell through the same rule', () => {
    expect(
      csvText(
        ['A', 'B'],
        [
          ['-x', null],
          ['@y', 'z'],
        ],
      ),
    ).toBe('A,B\n"\'-x",""\n"\'@y","z"');
  });
});

describe('the events CSV', () => {
  it('neutralises formulas in engine and rule texts', () => {
    const event: BerthEvent = {
      id: 1,
      timestamp: '2025-01-02T03:04:05Z',
      severity: 'error',
      category: 'container',
      event_type: 'state_change',
      title: '@SUM(A1:A9)',
      message: '=cmd|" /C calc"!A0',
      host_id: 'h1',
      host_name: '+edge',
      container_id: 'c1',
      container_name: '-web',
      old_state: 'running',
      new_state: 'exited',
      correlation_id: null,
      triggered_by: null,
    };
    const [header, row] = eventsCsv([event], { host: true }).split('\n');
    expect(header).toBe(
      'Timestamp,Severity,Category,Type,Title,Message,Host,Container,Old State,New State',
    );
    expect(row).toBe(
      `"2025-01-02T03:04:05Z","error","container","state_change","'@SUM(A1:A9)",` +
        `"'=cmd|"" /C calc""!A0","'+edge","'-web","running","exited"`,
    );
  });
});
