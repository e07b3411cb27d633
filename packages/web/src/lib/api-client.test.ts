import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiError } from './api-client';

const hostsSchema = z.object({ hosts: z.array(z.object({ id: z.string(), name: z.string() })) });

function answerWith(body: string, status = 200): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(body, { status }))),
  );
}

describe('api', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('returns an answer that matches its schema', async () => {
    answerWith(JSON.stringify({ hosts: [{ id: 'h1', name: 'one' }] }));
    await expect(api('/hosts', hostsSchema)).resolves.toEqual({
      hosts: [{ id: 'h1', name: 'one' }],
    });
  });

  it('shows a short message for an answer of the wrong shape, with the details in the console', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerWith(JSON.stringify({ hosts: [{ id: 7 }] }));
    await expect(api('/hosts', hostsSchema)).rejects.toThrow(
      /^Unexpected response from the server$/,
    );
    expect(logged).toHaveBeenCalledWith(
      '/api/hosts: the answer does not match its schema',
      expect.arrayContaining([expect.objectContaining({ path: ['hosts', 0, 'id'] })]),
    );
  });

  it('shows the same message for an answer that is not JSON (a proxy error page)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerWith('<html>Bad gateway</html>');
    await expect(api('/hosts', hostsSchema)).rejects.toThrow('Unexpected response from the server');
  });

  it("keeps the server's own message for an error status", async () => {
    answerWith(JSON.stringify({ detail: 'Host not found' }), 404);
    const failure = api('/hosts/x', hostsSchema);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow('Host not found');
  });
});
