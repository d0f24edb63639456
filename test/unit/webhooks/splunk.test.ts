// Splunk's saved-search alerts: the messages Zulip's zerver/webhooks/splunk/tests.py expects, and
// bodies it refuses. (A `topic` in the URL wins over these topics; the framework sees to that.)
import { describe, it, expect } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { splunk } from '../../../resolvers/webhooks/integrations/splunk.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(splunk, { body });

const LINK = 'http://example.com:8000/app/search/search?q=%7Cloadjob%20rt_scheduler__admin__search__sudo_at_1483557185_2.2%20%7C%20head%201%20%7C%20tail%201&earliest=0&latest=now';
const RAW = 'Jan  4 11:14:32 myserver sudo: pam_unix(sudo:session): session closed for user root';

function alert(extra: Record<string, unknown> = {}, result: Record<string, unknown> = {}) {
  return {
    results_link: LINK,
    app: 'search',
    result: { source: '/var/log/auth.log', host: 'myserver', _raw: RAW, _time: '1483557272', sourcetype: 'syslog', ...result },
    sid: 'rt_scheduler__admin__search__sudo_at_1483557185_2.2',
    search_name: 'sudo',
    owner: 'admin',
    ...extra,
  };
}

function message({ search = 'sudo', link = LINK, host = 'myserver', source = '/var/log/auth.log', raw = RAW } = {}) {
  return `Splunk alert from saved search:\n* **Search**: [${search}](${link})\n* **Host**: ${host}\n* **Source**: \`${source}\`\n* **Raw**: \`${raw}\``;
}

function without(body: Record<string, unknown>, key: string) {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

describe('splunk: registration', () => {
  it('is found by its URL name, without event types', () => {
    expect(integrationNamed('splunk')).toBe(splunk);
    expect(splunk.displayName).toBe('Splunk');
    expect(splunk.eventTypes).toBeNull();
  });
});

describe('splunk: search alerts', () => {
  it('test_splunk_search_one_result (the URL names the topic)', () => {
    const outcome = translate(alert());
    expectMessage(outcome, 'sudo', message());
    expect(outcome.eventType).toBeUndefined();
  });

  it('test_splunk_short_search_name', () => {
    const search = "This search's name isn't that long";
    expectMessage(translate(alert({ search_name: search })), search, message({ search }));
  });

  it('test_splunk_long_search_name', () => {
    const search = "this-search's-got-47-words-37-sentences-58-words-we-wanna-know-details-of-the-search-time-of-the-search-and-any-other-kind-of-thing-you-gotta-say-pertaining-to-and-about-the-search-I-want-to-know-authenticated-user's-name-and-any-other-kind-of-thing-you-gotta-say";
    expectMessage(translate(alert({ search_name: search })), "this-search's-got-47-words-37-sentences-58-words-we-wanna...", message({ search }));
  });

  it('cuts a name of exactly 60 characters, as Zulip does', () => {
    const search = 'x'.repeat(60);
    expect(translate(alert({ search_name: search })).messages[0]!.topic).toBe(`${'x'.repeat(57)}...`);
    expect(translate(alert({ search_name: 'y'.repeat(59) })).messages[0]!.topic).toBe('y'.repeat(59));
  });

  it('test_splunk_missing_results_link', () => {
    expectMessage(translate(without(alert(), 'results_link')), 'sudo', message({ link: 'Missing results_link' }));
  });

  it('test_splunk_missing_search_name', () => {
    expectMessage(translate(without(alert(), 'search_name')), 'Missing search_name', message({ search: 'Missing search_name' }));
  });

  it('test_splunk_missing_host', () => {
    expectMessage(translate(alert({ result: without(alert().result, 'host') })), 'sudo', message({ host: 'Missing host' }));
  });

  it('test_splunk_missing_source', () => {
    expectMessage(translate(alert({ result: without(alert().result, 'source') })), 'sudo', message({ source: 'Missing source' }));
  });

  it('test_splunk_missing_raw', () => {
    expectMessage(translate(alert({ result: without(alert().result, '_raw') })), 'sudo', message({ raw: 'Missing _raw' }));
  });

  it('names everything missing without a result', () => {
    expectMessage(translate(without(alert(), 'result')), 'sudo', message({ host: 'Missing host', source: 'Missing source', raw: 'Missing _raw' }));
  });
});

describe('splunk: malformed payloads', () => {
  it('refuses a body that is not JSON, or not an object', () => {
    expectError(() => translate('<xml/>'), InvalidJsonError, 'Malformed JSON');
    expect(refusalOf(() => translate('"sudo"')).message).toBe('payload is not a dict');
  });

  it('refuses fields of the wrong type', () => {
    expect(refusalOf(() => translate(alert({ search_name: null }))).message).toBe('payload["search_name"] is not a string');
    expect(refusalOf(() => translate(alert({ results_link: 8000 }))).message).toBe('payload["results_link"] is not a string');
    expect(refusalOf(() => translate(alert({ result: 'myserver' }))).message).toBe('payload["result"] is not a dict');
    expect(refusalOf(() => translate(alert({}, { host: ['myserver'] }))).message).toBe('payload["result"]["host"] is not a string');
  });
});
