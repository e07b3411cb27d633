import type { Session, UserSession } from '@berth/contracts';
import { notFound } from '../../platform/http-errors.js';
import { SESSION_MAX_AGE_MS } from './auth.service.js';
import type { AuthStore } from './auth.store.js';

export interface SessionsPorts {
  /** Closes the live sockets of a session that was just deleted. */
  closeSession: (tokenHash: string, reason: string) => void;
  now?: () => number;
}

interface SessionRow {
  token_hash: string;
  public_id: string | null;
  created_at: string;
  last_seen_at: string;
  address: string | null;
  user_agent: string | null;
  auth_method: string;
}

const NOT_FOUND = 'Session not found';

/**
 * Sessions as their owners and admins see them: listed by public id, ended one at a time or
 * all but the caller's own. Every ended session's sockets close at once.
 */
export class SessionsService {
  private readonly now: () => number;

  constructor(
    private readonly store: AuthStore,
    private readonly ports: SessionsPorts,
  ) {
    this.now = ports.now ?? Date.now;
  }

  /** The user's own sessions; `current` marks the one this request came with. */
  async own(userId: number, currentTokenHash: string): Promise<Session[]> {
    const rows = await this.store.listSessionsOf(userId, this.iso());
    return rows.filter((r) => this.alive(r)).map((r) => toSession(r, currentTokenHash));
  }

  /** Every user's sessions, for admins. */
  async all(currentTokenHash: string): Promise<UserSession[]> {
    const rows = await this.store.listAllSessions(this.iso());
    return rows
      .filter((r) => this.alive(r))
      .map((r) => ({
        ...toSession(r, currentTokenHash),
        user_id: r.user_id,
        username: r.username,
      }));
  }

  /**
   * Ends one of the user's own sessions; another user's answers 404 as if it did not exist.
   * Answers whether it was the caller's own (whose cookie is then cleared).
   */
  async endOwn(userId: number, publicId: string, currentTokenHash: string): Promise<boolean> {
    const tokenHash = await this.store.deleteSessionByPublicId(publicId, userId);
    if (tokenHash === undefined) throw notFound(NOT_FOUND);
    this.ports.closeSession(tokenHash, 'Signed out from another session');
    return tokenHash === currentTokenHash;
  }

  /** Ends every session of the user except the one this request came with. */
  async endOthers(userId: number, currentTokenHash: string): Promise<number> {
    const ended = await this.store.deleteOtherSessions(userId, currentTokenHash);
    for (const tokenHash of ended) this.ports.closeSession(tokenHash, 'Signed out everywhere');
    return ended.length;
  }

  /** An admin ends anyone's session. Answers whether it was the caller's own. */
  async endAny(publicId: string, currentTokenHash: string): Promise<boolean> {
    const tokenHash = await this.store.deleteSessionByPublicId(publicId, null);
    if (tokenHash === undefined) throw notFound(NOT_FOUND);
    this.ports.closeSession(tokenHash, 'Signed out by an admin');
    return tokenHash === currentTokenHash;
  }

  /** `session <id> (<username>)`, what the audit log names a session by. */
  async describe(publicId: string): Promise<string | null> {
    const username = await this.store.sessionOwner(publicId);
    return username === undefined ? null : `session ${publicId} (${username})`;
  }

  /** Past its absolute end a session is gone even if the pruning has not reached it yet. */
  private alive(row: SessionRow): boolean {
    return Date.parse(row.created_at) + SESSION_MAX_AGE_MS > this.now();
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}

function toSession(row: SessionRow, currentTokenHash: string): Session {
  return {
    id: row.public_id ?? '',
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    address: row.address,
    user_agent: row.user_agent,
    method: row.auth_method === 'sso' ? 'sso' : 'password',
    current: row.token_hash === currentTokenHash,
  };
}
