import { describe, expect, it } from 'vitest';
import { agentComposeSnippet, agentRunCommand, shellWord } from './agent-commands';

const env = { berthUrl: 'https://berth.example.com', token: 'abc_DEF-123', name: '' };

describe('the agent commands', () => {
  it('runs the berth-agent image with the socket, /proc, the cgroups, its volume and the token', () => {
    expect(agentRunCommand(env)).toBe(
      [
        'docker run -d --name berth-agent --restart unless-stopped',
        '--group-add "$(stat -c %g /var/run/docker.sock)"',
        '--cgroupns=host',
        '-v /var/run/docker.sock:/var/run/docker.sock',
        '-v /proc:/host/proc:ro',
        '-v /sys/fs/cgroup:/sys/fs/cgroup:ro',
        '-v berth-agent:/var/lib/berth-agent',
        '-e BERTH_URL=https://berth.example.com',
        '-e BERTH_AGENT_TOKEN=abc_DEF-123',
        'berth-agent',
      ].join(' \\\n  '),
    );
  });

  it('names the host only when a name was typed, quoted for the shell', () => {
    expect(agentRunCommand({ ...env, name: 'web 1' })).toContain(
      "-e 'BERTH_AGENT_NAME=web 1' \\\n  berth-agent",
    );
    expect(agentComposeSnippet({ ...env, name: 'web 1' })).toContain(
      '      BERTH_AGENT_NAME: "web 1"\n',
    );
    expect(agentComposeSnippet(env)).not.toContain('BERTH_AGENT_NAME');
  });

  it('writes a compose service with the same mounts and a named volume', () => {
    const compose = agentComposeSnippet(env);
    expect(compose).toContain('    image: berth-agent\n');
    expect(compose).toContain('      - /proc:/host/proc:ro\n');
    // Container stats from the host's cgroup files, as the docker run line has them.
    expect(compose).toContain('    cgroup: host\n');
    expect(compose).toContain('      - /sys/fs/cgroup:/sys/fs/cgroup:ro\n');
    expect(compose).toContain('      BERTH_AGENT_TOKEN: "abc_DEF-123"\n');
    // The image runs as uid 1000: the socket's group, which the host names at `up`.
    expect(compose).toContain(
      '    group_add:\n      - "${DOCKER_GID:?set DOCKER_GID to what stat -c %g /var/run/docker.sock prints}"\n',
    );
    expect(compose.endsWith('volumes:\n  berth-agent:\n')).toBe(true);
  });

  it('allows plain http:// only by saying so, since the agent refuses it otherwise', () => {
    const plain = { ...env, berthUrl: 'http://192.0.2.5:8080' };
    expect(agentRunCommand(plain)).toContain('-e BERTH_AGENT_INSECURE=1 \\\n  berth-agent');
    expect(agentComposeSnippet(plain)).toContain('      BERTH_AGENT_INSECURE: "1"\n');
    expect(agentRunCommand(env)).not.toContain('INSECURE');
  });

  it('quotes what a shell would split or expand', () => {
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(shellWord('plain-1.0')).toBe('plain-1.0');
  });
});
