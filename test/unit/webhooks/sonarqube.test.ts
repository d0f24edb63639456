// SonarQube's webhooks, against the messages Zulip's zerver/webhooks/sonarqube/tests.py expects. The
// payloads are trimmed to what the integration reads, in the shape SonarQube sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { sonarqube } from '../../../resolvers/webhooks/integrations/sonarqube.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown): WebhookOutcome => translateWith(sonarqube, { body: payload });

const PROJECT = { key: 'test-sonar', name: 'test-sonar', url: 'http://localhost:9000/dashboard?id=test-sonar' };
const MASTER = { name: 'master', type: 'BRANCH', isMain: true, url: 'http://localhost:9000/dashboard?id=test-sonar' };
const LINK = '[test-sonar](http://localhost:9000/dashboard?id=test-sonar)';

const condition = (metric: string, operator: string, status: string, errorThreshold: string, value?: string) => ({
  metric, operator, ...(value === undefined ? {} : { value }), status, errorThreshold,
});
const PASSED = [
  condition('new_reliability_rating', 'GREATER_THAN', 'OK', '1', '1'),
  condition('new_security_rating', 'GREATER_THAN', 'OK', '1', '1'),
  condition('new_coverage', 'LESS_THAN', 'NO_VALUE', '80'),
  condition('new_security_hotspots_reviewed', 'LESS_THAN', 'NO_VALUE', '100'),
];
const FAILED = [
  condition('maintainability_rating', 'GREATER_THAN', 'OK', '1', '1'),
  condition('coverage', 'LESS_THAN', 'ERROR', '80', '0.0'),
  condition('duplicated_lines_density', 'GREATER_THAN', 'ERROR', '3', '89.39828080229226'),
];
const analysis = (status: string, conditions: unknown, branch?: unknown) => ({
  serverUrl: 'http://localhost:9000', taskId: 'AXgTFfXRZCzhMRNj54bo', status: 'SUCCESS', project: PROJECT,
  ...(branch === undefined ? {} : { branch }), qualityGate: { name: 'Sonar way', status, conditions }, properties: {},
});
const FAILED_LINES = '* coverage: **error** 0.0 should be greater than or equal to 80.\n* duplicated lines density: **error** 89.39828080229226 should be less than or equal to 3.';

describe('analysis of a branch', () => {
  it('reports a passed quality gate', () => {
    expectMessage(send(analysis('OK', PASSED, MASTER)), 'test-sonar / master', `Project ${LINK} analysis of branch master resulted in success.`);
  });

  it('lists the conditions that failed', () => {
    expectMessage(send(analysis('ERROR', FAILED, MASTER)), 'test-sonar / master', `Project ${LINK} analysis of branch master resulted in error:\n${FAILED_LINES}`);
  });

  it('names a failed condition without a value', () => {
    const conditions = [...FAILED.slice(0, 2), condition('duplicated_lines_density', 'GREATER_THAN', 'ERROR', '3')];
    expectMessage(send(analysis('ERROR', conditions, MASTER)), 'test-sonar / master',
      `Project ${LINK} analysis of branch master resulted in error:\n* coverage: **error** 0.0 should be greater than or equal to 80.\n* duplicated lines density: **error**.`);
  });

  it('keeps an operator it cannot invert', () => {
    expectMessage(send(analysis('WARN', [condition('new_bugs', 'EQUALS', 'WARN', '0', '2')], MASTER)), 'test-sonar / master',
      `Project ${LINK} analysis of branch master resulted in error:\n* new bugs: **warn** 2 EQUALS 0.`);
  });
});

describe('analysis without a branch', () => {
  it('reports a passed quality gate', () => {
    expectMessage(send(analysis('OK', PASSED)), 'test-sonar', `Project ${LINK} analysis resulted in success.`);
  });

  it('lists the conditions that failed', () => {
    expectMessage(send(analysis('ERROR', FAILED)), 'test-sonar', `Project ${LINK} analysis resulted in error:\n${FAILED_LINES}`);
  });

  it('treats a branch without a name as none', () => {
    expectMessage(send(analysis('OK', PASSED, { name: null })), 'test-sonar', `Project ${LINK} analysis resulted in success.`);
    expectMessage(send(analysis('OK', PASSED, { name: '' })), 'test-sonar', `Project ${LINK} analysis resulted in success.`);
    expectMessage(send(analysis('OK', PASSED, {})), 'test-sonar', `Project ${LINK} analysis resulted in success.`);
  });
});

describe('refusals', () => {
  it('is registered under its URL name, without event types', () => {
    expect(integrationNamed('sonarqube')).toBe(sonarqube);
    expect(sonarqube.displayName).toBe('Sonarqube');
    expect(sonarqube.eventTypes).toBeNull();
    expect(send(analysis('OK', PASSED)).eventType).toBeUndefined();
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('not json'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send([]), ParleyError, 'payload is not a dict');
    expectError(() => send({}), ParleyError, 'payload["project"] is missing');
    expectError(() => send(analysis('OK', PASSED, null)), ParleyError, 'payload["branch"] is not a dict');
    expectError(() => send(analysis('OK', PASSED, { name: 5 })), ParleyError, 'payload["branch"]["name"] is not a string');
    expectError(() => send({ ...analysis('OK', PASSED), qualityGate: { status: 'OK' } }), ParleyError, 'payload["qualityGate"]["conditions"] is missing');
    expectError(() => send(analysis('OK', {})), ParleyError, 'payload["qualityGate"]["conditions"] is not a list');
    expectError(() => send(analysis('ERROR', [{ metric: 'coverage' }])), ParleyError, 'payload["qualityGate"]["conditions"][0]["status"] is missing');
    expectError(() => send(analysis('ERROR', [{ ...FAILED[1], value: null }])), ParleyError, 'payload["qualityGate"]["conditions"][0]["value"] is not a string');
    expectError(() => send(analysis('ERROR', [{ ...FAILED[1], errorThreshold: 80 }])), ParleyError, 'payload["qualityGate"]["conditions"][0]["errorThreshold"] is not a string');
  });
});
