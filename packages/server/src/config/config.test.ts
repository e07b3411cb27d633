import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.adminUsername).toBe('admin');
    expect(config.adminPassword).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.secureCookies).toBe(false);
  });

  it('names the variable and the value when a value is bad', () => {
    expect(() => loadConfig({ BERTH_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ BERTH_PORT: '70000' })).toThrow(/BERTH_PORT: .*"70000"/);
    expect(() => loadConfig({ BERTH_LOG_LEVEL: 'loud' })).toThrow(/BERTH_LOG_LEVEL/);
    expect(() => loadConfig({ BERTH_SECURE_COOKIES: 'maybe' })).toThrow(/BERTH_SECURE_COOKIES/);
    expect(() => loadConfig({ BERTH_ADMIN_PASSWORD: 'short' })).toThrow(/BERTH_ADMIN_PASSWORD/);
    expect(() => loadConfig({ BERTH_ADMIN_PASSWORD: 'short' })).not.toThrow(/short/);
  });

  it('reads booleans and treats empty variables as unset', () => {
    expect(loadConfig({ BERTH_SECURE_COOKIES: 'true' }).secureCookies).toBe(true);
    expect(loadConfig({ BERTH_SECURE_COOKIES: '0' }).secureCookies).toBe(false);
    expect(loadConfig({ BERTH_PORT: '' }).port).toBe(8080);
  });
});

describe('proxy settings', () => {
  it('leaves proxy headers untrusted and no extra origins by default', () => {
    const config = loadConfig({});
    expect(config.trustProxy).toBe(false);
    expect(config.allowedOrigins).toEqual([]);
  });

  it('reads BERTH_TRUST_PROXY as a flag', () => {
    expect(loadConfig({ BERTH_TRUST_PROXY: 'yes' }).trustProxy).toBe(true);
    expect(() => loadConfig({ BERTH_TRUST_PROXY: 'sometimes' })).toThrow(/BERTH_TRUST_PROXY/);
  });

  it('normalises BERTH_ALLOWED_ORIGINS and refuses anything that is not an origin', () => {
    const config = loadConfig({
      BERTH_ALLOWED_ORIGINS: ' https://Berth.Example.com:443/ , http://10.0.0.5:8080,',
    });
    expect(config.allowedOrigins).toEqual(['https://berth.example.com', 'http://10.0.0.5:8080']);
    for (const bad of ['berth.example.com', 'https://x.example/path', 'ftp://x.example', '*']) {
      expect(() => loadConfig({ BERTH_ALLOWED_ORIGINS: bad })).toThrow(
        /^Invalid configuration: BERTH_ALLOWED_ORIGINS: /,
      );
    }
  });
});

describe('release feed', () => {
  it('is off unless BERTH_RELEASE_FEED_URL is set, and must be an http(s) URL', () => {
    expect(loadConfig({}).releaseFeedUrl).toBeNull();
    expect(
      loadConfig({ BERTH_RELEASE_FEED_URL: 'https://example.com/berth/latest.json' })
        .releaseFeedUrl,
    ).toBe('https://example.com/berth/latest.json');
    for (const bad of ['example.com/latest.json', 'ftp://example.com/x', 'https://u@x.example/']) {
      expect(() => loadConfig({ BERTH_RELEASE_FEED_URL: bad })).toThrow(
        /^Invalid configuration: BERTH_RELEASE_FEED_URL: must be an http:\/\/ or https:\/\/ URL/,
      );
    }
  });
});

describe('log format', () => {
  it('is pretty on a terminal and json elsewhere unless BERTH_LOG_FORMAT says', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ BERTH_LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ BERTH_LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(loadConfig({ BERTH_LOG_FORMAT: '' }, false).logFormat).toBe('json');
  });

  it('refuses anything else, naming the variable and the value', () => {
    expect(() => loadConfig({ BERTH_LOG_FORMAT: 'text' })).toThrow(
      'Invalid configuration: BERTH_LOG_FORMAT: must be json or pretty (got "text")',
    );
  });
});
