import { describe, expect, it } from 'vitest';
import { describeEngineError, EngineError } from './engine-errors.js';

const err = (code: string) => Object.assign(new Error(code), { code });
const URL = 'tcp://10.0.0.1:2375';

describe('describeEngineError', () => {
  it.each([
    ['ECONNREFUSED', /^Connection refused by tcp:\/\/10\.0\.0\.1:2375/],
    ['ETIMEDOUT', /timed out/],
    ['ENOTFOUND', /^Host not found/],
    ['ENOENT', /^Socket not found/],
    ['EACCES', /^Permission denied/],
    ['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', /^TLS handshake rejected by .*client certificate/],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', /^TLS handshake rejected/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /^TLS verification failed/],
    ['ECONNRESET', /reset/],
  ])('explains %s', (code, expected) => {
    expect(describeEngineError(err(code), URL)).toMatch(expected);
  });

  it('finds the code on a cause', () => {
    expect(describeEngineError(new Error('x', { cause: err('ECONNREFUSED') }), URL)).toMatch(
      /refused/,
    );
  });

  it('says when something answered HTTP but is not the Docker API', () => {
    const notDocker = Object.assign(new Error('(HTTP code 404) unexpected'), { statusCode: 404 });
    expect(describeEngineError(notDocker, URL)).toBe('Not a Docker engine');
  });

  it('says the same of bytes that are not HTTP at all', () => {
    expect(describeEngineError(err('HPE_INVALID_CONSTANT'), URL)).toBe('Not a Docker engine');
  });

  it('tells a plain-HTTP call to a TLS engine apart from a server that is not Docker', () => {
    const tlsOnly = Object.assign(new Error('(HTTP code 400)'), {
      statusCode: 400,
      json: Buffer.from('Client sent an HTTP request to an HTTPS server.\n'),
    });
    expect(describeEngineError(tlsOnly, URL)).toMatch(/expects TLS/);
  });

  it('keeps an EngineError as it is', () => {
    expect(describeEngineError(new EngineError('already clear'), URL)).toBe('already clear');
  });
});
