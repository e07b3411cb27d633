import { describe, expect, it } from 'vitest';
import { validate, type HostFormValues } from './use-host-form';

const values = (url: string): HostFormValues => ({
  name: 'edge',
  url,
  tags: '',
  description: '',
  mtls: false,
  tls_ca: null,
  tls_cert: null,
  tls_key: null,
});

describe('the host form’s address', () => {
  it('shows a port out of range under the field, before anything is sent', () => {
    expect(validate(values('tcp://127.0.0.1:99999'))).toEqual({
      url: 'URL port must be between 1 and 65535',
    });
    expect(validate(values('tcp://127.0.0.1:2375/docker')).url).toBe(
      'URL must be scheme://host or scheme://host:port, with no path',
    );
    expect(validate(values('unix://docker.sock')).url).toMatch(/^URL must give the absolute path/);
  });

  it('takes every form of address Berth connects to', () => {
    for (const url of [
      'tcp://127.0.0.1:2375',
      'http://engine.example',
      'https://[::1]:2376/',
      'unix:///var/run/docker.sock',
    ])
      expect(validate(values(url)), url).toEqual({});
  });
});
