// WholeResponse: a plain web Response to any reader, and its body as given to the node adapter.
import { describe, expect, it } from 'vitest';
import { WholeResponse } from '../../server/whole-response.js';

describe('WholeResponse', () => {
  it('reads like a Response made of the same body and init', async () => {
    const response = new WholeResponse('{"detail":"x"}', { status: 404, headers: { 'content-type': 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"detail":"x"}');
  });

  it('keeps the body as given, text or bytes, even after the stream is read', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const response = new WholeResponse(bytes, {});
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(response.whole).toBe(bytes);
    expect(new WholeResponse('text', {}).whole).toBe('text');
  });

  it('is not what a plain Response is', () => {
    expect(new Response('text')).not.toBeInstanceOf(WholeResponse);
  });
});
