import { EXEC_SHELLS, type Container } from '@berth/contracts';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { ExecConnection, type ExecStatus } from '../../lib/exec-connection';

const CUSTOM = 'custom';
/** Resizes follow the panel's size, at most this often (a drag sends many). */
const RESIZE_EVERY_MS = 100;

/**
 * A shell in the container (xterm.js): pick a shell or a command and a user, connect, type.
 * The session ends on Disconnect, when the dialog closes or the tab is left (the server kills
 * the process when the socket closes), or after the idle time the admin set.
 */
export function ShellTab({ container }: { container: Container }) {
  const [shell, setShell] = useState<string>(EXEC_SHELLS[0]);
  const [custom, setCustom] = useState('');
  const [user, setUser] = useState('');
  const [status, setStatus] = useState<ExecStatus>({ kind: 'idle' });
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<{ terminal: Terminal; fit: FitAddon } | null>(null);
  const connection = useRef<ExecConnection | null>(null);

  // One terminal for the tab's life; sessions come and go in it.
  useEffect(() => {
    const element = host.current;
    if (element === null) return;
    const terminal = new Terminal({
      cursorBlink: true,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      scrollback: 5000,
      theme: { background: '#020617' },
      // Copy and paste as a terminal user expects them (Ctrl+Shift+C/V handled below).
      rightClickSelectsWord: true,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.loadAddon(new WebLinksAddon());
    terminal.open(element);
    fit.fit();
    terminal.attachCustomKeyEventHandler((event) => {
      if (event.type !== 'keydown' || !event.ctrlKey || !event.shiftKey) return true;
      if (event.code === 'KeyC') {
        void copySelection(terminal);
        return false;
      }
      if (event.code === 'KeyV') {
        void pasteInto(terminal);
        return false;
      }
      return true;
    });
    const typed = terminal.onData((data) => connection.current?.input(data));
    term.current = { terminal, fit };
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        fit.fit();
        connection.current?.resize(terminal.cols, terminal.rows);
      }, RESIZE_EVERY_MS);
    });
    observer.observe(element);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
      typed.dispose();
      connection.current?.close();
      connection.current = null;
      terminal.dispose();
      term.current = null;
    };
  }, []);

  const running = container.state === 'running';
  const command = shell === CUSTOM ? custom.trim() : shell;
  const open = status.kind === 'open' || status.kind === 'connecting';

  const connect = () => {
    const t = term.current;
    if (t === null || command === '') return;
    connection.current?.close();
    t.terminal.reset();
    t.fit.fit();
    connection.current = new ExecConnection(
      {
        hostId: container.host_id,
        containerId: container.id,
        command,
        user: user.trim(),
        cols: t.terminal.cols,
        rows: t.terminal.rows,
      },
      {
        onOutput: (bytes) => writeInPieces(t.terminal, bytes),
        onNotice: (detail) => toast.error(detail),
        onStatus: (next) => {
          setStatus(next);
          if (next.kind === 'open') t.terminal.focus();
          if (next.kind === 'ended')
            t.terminal.write(`\r\n\x1b[${next.failed ? '31' : '33'}m[${next.detail}]\x1b[0m\r\n`);
        },
      },
    );
  };

  const disconnect = () => {
    connection.current?.close();
    connection.current = null;
    setStatus({ kind: 'ended', detail: 'Disconnected; the shell was ended', failed: false });
    term.current?.terminal.write('\r\n\x1b[33m[Disconnected; the shell was ended]\x1b[0m\r\n');
  };

  return (
    <div data-testid="container-shell" data-container-id={container.id} className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-xs text-slate-400">
          Shell
          <Select
            aria-label="Shell"
            value={shell}
            disabled={open}
            onChange={(e) => setShell(e.target.value)}
          >
            {EXEC_SHELLS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
            <option value={CUSTOM}>Custom command…</option>
          </Select>
        </label>
        {shell === CUSTOM && (
          <label className="flex min-w-40 flex-1 flex-col gap-1 text-xs text-slate-400">
            Command
            <Input
              size="md"
              aria-label="Command"
              placeholder="e.g. /usr/bin/python3"
              value={custom}
              maxLength={500}
              disabled={open}
              onChange={(e) => setCustom(e.target.value)}
            />
          </label>
        )}
        <label className="flex w-36 flex-col gap-1 text-xs text-slate-400">
          User
          <Input
            size="md"
            aria-label="User"
            placeholder="container’s own"
            value={user}
            maxLength={64}
            disabled={open}
            onChange={(e) => setUser(e.target.value)}
          />
        </label>
        {open ? (
          <Button variant="secondary" onClick={disconnect}>
            Disconnect
          </Button>
        ) : (
          <Button onClick={connect} disabled={!running || command === ''}>
            Connect
          </Button>
        )}
        <div className="flex gap-1">
          <Button
            variant="ghost"
            size="sm"
            title="Copy the selection (Ctrl+Shift+C)"
            onClick={() => term.current && void copySelection(term.current.terminal)}
          >
            Copy
          </Button>
          <Button
            variant="ghost"
            size="sm"
            title="Paste (Ctrl+Shift+V)"
            disabled={status.kind !== 'open'}
            onClick={() => term.current && void pasteInto(term.current.terminal)}
          >
            Paste
          </Button>
        </div>
      </div>
      <StatusLine status={status} running={running} />
      <div
        ref={host}
        data-testid="shell-terminal"
        className="h-[55vh] min-h-48 w-full overflow-hidden rounded-md border border-slate-800 bg-slate-950 p-1"
      />
    </div>
  );
}

function StatusLine({ status, running }: { status: ExecStatus; running: boolean }) {
  const text = !running
    ? 'The container is not running: start it to open a shell.'
    : status.kind === 'idle'
      ? 'Not connected.'
      : status.kind === 'connecting'
        ? 'Connecting…'
        : status.kind === 'open'
          ? `Connected: ${status.command.join(' ')} (ends after ${status.idleMinutes} min without input)`
          : status.detail;
  const failed = status.kind === 'ended' && status.failed;
  return (
    <p
      data-testid="shell-status"
      role="status"
      className={failed ? 'text-sm text-red-300' : 'text-sm text-slate-400'}
    >
      {text}
    </p>
  );
}

async function copySelection(terminal: Terminal): Promise<void> {
  const text = terminal.getSelection();
  if (text === '') return;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    toast.error('The browser refused the clipboard');
  }
}

async function pasteInto(terminal: Terminal): Promise<void> {
  try {
    // paste() wraps it for bracketed paste and sends it through onData.
    terminal.paste(await navigator.clipboard.readText());
  } catch {
    toast.error('The browser refused to read the clipboard');
  }
}

/**
 * xterm parses each write whole and looks at the clock only between writes, so an engine
 * chunk of 64 KB is one long task; pieces let it yield to the page between them.
 */
const WRITE_PIECE_BYTES = 8192;

function writeInPieces(terminal: { write(data: Uint8Array): void }, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; at += WRITE_PIECE_BYTES)
    terminal.write(bytes.subarray(at, at + WRITE_PIECE_BYTES));
}
