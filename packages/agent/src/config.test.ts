import { expect, it } from 'vitest';
import { readAgentConfig } from './config.js';

const TOKEN = 'tok-3f9a1c';

it('derives the wss:// connect and https:// enroll addresses from an https BERTH_URL', () => {
  const config = readAgentConfig({ BERTH_URL: 'https://berth.example.com/base/' });
  expect(config.connectUrl).toBe('wss://berth.example.com/base/api/agents/connect');
  expect(config.enrollUrl).toBe('https://berth.example.com/base/api/agents/enroll');
  expect(config).toMatchObject({ insecure: false, readOnly: false, caFile: null });
});

it('refuses http:// unless BERTH_AGENT_INSECURE is set, saying how in one line', () => {
  expect(() => readAgentConfig({ BERTH_URL: 'http://10.0.0.5:8080' })).toThrow(
    "BERTH_URL is http://10.0.0.5:8080: the secret and the engine's traffic would cross the network unencrypted; use https://, or set BERTH_AGENT_INSECURE=1 to allow it",
  );
  expect(() => readAgentConfig({ BERTH_URL: 'http://h', BERTH_AGENT_INSECURE: '0' })).toThrow();
  const config = readAgentConfig({ BERTH_URL: 'http://h:8080', BERTH_AGENT_INSECURE: '1' });
  expect(config).toMatchObject({ insecure: true, connectUrl: 'ws://h:8080/api/agents/connect' });
});

it('refuses credentials or a query in BERTH_URL without repeating them', () => {
  for (const url of [`https://admin:${TOKEN}@berth`, `https://berth/?token=${TOKEN}`, TOKEN]) {
    let message = '';
    try {
      readAgentConfig({ BERTH_URL: url });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^BERTH_URL /);
    expect(message).not.toContain(TOKEN);
  }
});

it('reads the read-only flag, the CA file, and an empty name as none', () => {
  const config = readAgentConfig({
    BERTH_URL: 'https://berth',
    BERTH_AGENT_READ_ONLY: 'true',
    BERTH_AGENT_CA_FILE: '/certs/ca.pem',
    BERTH_AGENT_NAME: '',
  });
  expect(config).toMatchObject({ readOnly: true, caFile: '/certs/ca.pem' });
  expect(config.name).not.toBe('');
});
