import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { MqttStatus } from '@berth/contracts';
import { OFFLINE, ONLINE, statusTopic } from './topics.js';

export interface ConnectionOptions {
  url: string;
  username: string;
  password: string | null;
  prefix: string;
  /** Called on each (re)connect, after the online status is out: subscribe and republish. */
  onConnect: () => void;
  onMessage: (topic: string, payload: Buffer) => void;
  /** The status changed (the UI polls it; tests wait on it). */
  onStatus?: (status: MqttStatus) => void;
}

const CONNECT_TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/**
 * One broker connection with its Last Will, availability and reconnects. mqtt.js retries at a
 * fixed period; this doubles it from 1 s to 60 s after each failed try (a broker that refuses
 * the credentials is not hammered) and goes back to 1 s once connected. Every error is caught
 * here and becomes the status' last_error: nothing from the broker can reach the process.
 */
export class MqttConnection {
  private readonly client: MqttClient;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private published = 0;
  private current: MqttStatus = {
    state: 'connecting',
    connected: false,
    last_error: null,
    since: new Date().toISOString(),
    messages_published: 0,
  };

  constructor(private readonly opts: ConnectionOptions) {
    const options: IClientOptions = {
      clientId: `berth-${randomBytes(6).toString('hex')}`,
      ...(opts.username === '' ? {} : { username: opts.username }),
      ...(opts.password === null ? {} : { password: opts.password }),
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Our own backoff below; mqtt.js would retry every period without growing.
      reconnectPeriod: 0,
      clean: true,
      queueQoSZero: false,
      will: {
        topic: statusTopic(opts.prefix),
        payload: Buffer.from(OFFLINE),
        qos: 1,
        retain: true,
      },
    };
    this.client = connect(opts.url, options);
    this.client.on('connect', () => {
      this.retryMs = FIRST_RETRY_MS;
      this.setStatus('connected', null);
      this.publish(statusTopic(opts.prefix), ONLINE, { retain: true, qos: 1 });
      opts.onConnect();
    });
    this.client.on('message', (topic, payload) => opts.onMessage(topic, payload));
    this.client.on('error', (err) => this.setStatus('disconnected', err.message));
    this.client.on('close', () => this.scheduleRetry());
    this.client.on('offline', () => this.setStatus('disconnected', this.current.last_error));
  }

  get status(): MqttStatus {
    return { ...this.current, messages_published: this.published };
  }

  get connected(): boolean {
    return this.client.connected;
  }

  publish(topic: string, payload: string, opts: { retain: boolean; qos: 0 | 1 }): void {
    if (!this.client.connected) return;
    this.published++;
    this.client.publish(topic, payload, opts, () => undefined);
  }

  /** Publishes and waits for the broker's acknowledgement (QoS 1), within the timeout. */
  publishAsync(topic: string, payload: string, retain: boolean): Promise<void> {
    if (!this.client.connected)
      return Promise.reject(new Error(this.current.last_error ?? 'Not connected to the broker'));
    this.published++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('The broker did not acknowledge')),
        CONNECT_TIMEOUT_MS,
      );
      this.client.publish(topic, payload, { qos: 1, retain }, (err) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      });
    });
  }

  subscribe(filter: string): void {
    this.client.subscribe(filter, { qos: 1 }, (err) => {
      if (err) this.setStatus(this.current.state, `Subscribe refused: ${err.message}`);
    });
  }

  /** Says offline (retained) and disconnects; the Last Will covers a crash instead. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.client.connected) {
      await this.publishAsync(statusTopic(this.opts.prefix), OFFLINE, true).catch(() => undefined);
    }
    await new Promise<void>((done) => {
      const timer = setTimeout(() => {
        this.client.end(true);
        done();
      }, 2000);
      this.client.end(false, {}, () => {
        clearTimeout(timer);
        done();
      });
    });
  }

  private scheduleRetry(): void {
    if (this.closing || this.retryTimer !== null) return;
    if (this.current.state === 'connected') this.setStatus('disconnected', 'Connection lost');
    // A broker that never answers (connect timeout) closes without an error to show.
    else if (this.current.last_error === null)
      this.setStatus(
        'disconnected',
        `No answer from the broker within ${CONNECT_TIMEOUT_MS / 1000} s`,
      );
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closing) return;
      if (this.current.state !== 'connected') this.setStatus('connecting', this.current.last_error);
      this.client.reconnect();
    }, wait);
    this.retryTimer.unref();
  }

  private setStatus(state: MqttStatus['state'], lastError: string | null): void {
    const changed = state !== this.current.state || lastError !== this.current.last_error;
    if (!changed) return;
    this.current = {
      state,
      connected: state === 'connected',
      last_error: lastError,
      since: state === this.current.state ? this.current.since : new Date().toISOString(),
      messages_published: this.published,
    };
    this.opts.onStatus?.(this.status);
  }
}
