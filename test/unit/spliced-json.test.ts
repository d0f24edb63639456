// server/websocket.ts: graphql-ws serializes each frame around a token, and the socket puts the
// event's own JSON in its place, once.
import { describe, expect, it } from 'vitest';
import { SplicedJson } from '../../server/websocket.ts';

const frame = (value: unknown, id = '1') => JSON.stringify({ id, type: 'next', payload: { data: { queueEvents: value } } });

describe('SplicedJson', () => {
  it('puts the held JSON where its token stands, making the frame JSON.stringify would have made', () => {
    const event = { type: 'message', message: { content: 'quotes " and \\ and \u2028' }, id: 7 };
    const spliced = new SplicedJson();
    const token = spliced.hold(JSON.stringify(event));
    expect(spliced.splice(frame(token))).toBe(frame(event));
  });

  it('splices each token once, and the tokens of one socket apart', () => {
    const spliced = new SplicedJson();
    const first = spliced.hold('{"n":1}');
    const second = spliced.hold('{"n":2}');
    expect(first).not.toBe(second);
    expect(JSON.parse(spliced.splice(frame(second, '2'))).payload.data.queueEvents).toEqual({ n: 2 });
    expect(JSON.parse(spliced.splice(frame(first, '1'))).payload.data.queueEvents).toEqual({ n: 1 });
    // Spent: the same token again is left as it is.
    expect(spliced.splice(frame(first))).toBe(frame(first));
  });

  it('leaves frames without a held token alone', () => {
    const spliced = new SplicedJson();
    expect(spliced.splice(frame('\u0000json:0'))).toBe(frame('\u0000json:0'));
    const token = spliced.hold('{"n":1}');
    expect(spliced.splice(frame('\u0000json:99'))).toBe(frame('\u0000json:99'));
    expect(spliced.splice(JSON.stringify({ id: '1', type: 'complete' }))).toBe('{"id":"1","type":"complete"}');
    // A token that is not the frame's last value is not one this socket held for it.
    const inside = JSON.stringify({ id: '1', type: 'next', payload: { data: { queueEvents: token, other: 1 } } });
    expect(spliced.splice(inside)).toBe(inside);
  });
});
