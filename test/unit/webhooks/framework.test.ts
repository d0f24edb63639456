// What every integration relies on: Zulip's event filters (Python's fnmatch), Python's unquote for
// Atlassian's doubly escaped URLs, and WildValue's refusals, which name the path they took.
import { describe, expect, it } from 'vitest';
import { fnmatch, pythonUnquote } from '../../../resolvers/webhooks/python.ts';
import { WildValue } from '../../../resolvers/webhooks/payload.ts';
import { refusalOf } from '../../support/webhooks.ts';

describe('only_events / exclude_events patterns (fnmatch)', () => {
  it('matches *, ? and character sets, case-sensitively, across any character', () => {
    expect(fnmatch('pull_request_review_comment', 'pull_request*')).toBe(true);
    expect(fnmatch('push_commits', 'push_commit?')).toBe(true);
    expect(fnmatch('push_tags', 'push_[ct]*')).toBe(true);
    expect(fnmatch('push_branch', 'push_[!ct]*')).toBe(true);
    expect(fnmatch('push_commits', 'push_[!ct]*')).toBe(false);
    expect(fnmatch('Push_commits', 'push*')).toBe(false);
    expect(fnmatch('a/b:c', '*')).toBe(true);
  });

  it('takes regular-expression characters and unclosed sets literally', () => {
    expect(fnmatch('a.b', 'a.b')).toBe(true);
    expect(fnmatch('axb', 'a.b')).toBe(false);
    expect(fnmatch('a(b)+', 'a(b)+')).toBe(true);
    expect(fnmatch('[abc', '[abc')).toBe(true);
    expect(fnmatch('a]', '[]]')).toBe(false);
    expect(fnmatch(']', '[]]')).toBe(true);
  });
});

describe("Python's unquote", () => {
  it('decodes %XX as UTF-8 once, leaving what is not an escape', () => {
    expect(pythonUnquote('jira%20alerts')).toBe('jira alerts');
    expect(pythonUnquote('%C3%A9t%C3%A9')).toBe('été');
    expect(pythonUnquote('100%')).toBe('100%');
    expect(pythonUnquote('%zz%2')).toBe('%zz%2');
    expect(pythonUnquote('%252520')).toBe('%2520');
    expect(pythonUnquote('%FF')).toBe('\ufffd');
  });
});

describe('WildValue', () => {
  const payload = new WildValue('payload', { a: { b: [1, 'x'] }, n: null, s: '' });

  it('names the path of what is missing or of the wrong type', () => {
    expect(refusalOf(() => payload.get('a').get('c')).message).toBe('payload["a"]["c"] is missing');
    expect(refusalOf(() => payload.get('a').get('b').list()[1]!.int()).message).toBe('payload["a"]["b"][1] is not an integer');
    expect(refusalOf(() => payload.get('a').get('b').get('c')).message).toBe('payload["a"]["b"] is not a dict');
    expect(refusalOf(() => payload.opt('z').str()).message).toBe('payload["z"] is missing');
    expect(refusalOf(() => payload.get('constructor')).message).toBe('payload["constructor"] is missing');
  });

  it("reads absent and null alike where asked, and Python's truth values", () => {
    expect(payload.get('n').optStr()).toBeNull();
    expect(payload.opt('z').optInt()).toBeNull();
    expect([payload.get('s'), payload.get('n'), payload.opt('z'), new WildValue('x', {}), new WildValue('x', [])].map((v) => v.truthy())).toEqual([false, false, false, false, false]);
    expect([payload.get('a'), new WildValue('x', 0.5), new WildValue('x', ' ')].map((v) => v.truthy())).toEqual([true, true, true]);
  });
});
