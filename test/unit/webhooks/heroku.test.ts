// Heroku's Deploy Hooks, against the messages Zulip's zerver/webhooks/heroku/tests.py expects. Heroku
// posts the deploy as form fields, which the framework hands over as parameters.
import { describe, expect, it } from 'vitest';
import { MissingArgumentError } from '../../../resolvers/errors.ts';
import { heroku } from '../../../resolvers/webhooks/integrations/heroku.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

/** The form Heroku posts, as URLSearchParams decodes it. */
function send(form: string): WebhookOutcome {
  return translateWith(heroku, { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, params: Object.fromEntries(new URLSearchParams(form)) });
}

const deployForm = (gitLog: string, omit?: string) => new URLSearchParams(Object.entries({
  app: 'sample-project', app_uuid: 'f46ffea9-d6be-4293-ae6e-4449fa5ae29a', user: 'user@example.com',
  url: 'http://sample-project.herokuapp.com', head: '3eb5f44', head_long: '3eb5f447a2f6bcf254e63fbf2426b8e6738608eb',
  prev_head: '32d184c097b04182483999046e91c32328c07562', git_log: gitLog, release: 'v9',
}).filter(([name]) => name !== omit)).toString();

describe('deploy', () => {
  it('quotes the git log of a deploy', () => {
    expectMessage(send(deployForm('  * Example User: Test commit for Deploy Hook 2')), 'sample-project',
      'user@example.com deployed version 3eb5f44 of [sample-project](http://sample-project.herokuapp.com):\n\n``` quote\n  * Example User: Test commit for Deploy Hook 2\n```');
  });

  it('quotes every commit of the log', () => {
    expectMessage(send(deployForm('  * Example User: Test commit for Deploy Hook\n  * Example User: Second test commit for Deploy Hook 2')), 'sample-project',
      'user@example.com deployed version 3eb5f44 of [sample-project](http://sample-project.herokuapp.com):\n\n``` quote\n  * Example User: Test commit for Deploy Hook\n  * Example User: Second test commit for Deploy Hook 2\n```');
  });

  it('has no event types', () => {
    expect(integrationNamed('heroku')).toBe(heroku);
    expect(heroku.displayName).toBe('Heroku');
    expect(heroku.eventTypes).toBeNull();
    expect(send(deployForm('log')).eventType).toBeUndefined();
  });
});

describe('refusals', () => {
  it('names the first field missing, as Zulip does', () => {
    for (const name of ['head', 'app', 'user', 'url', 'git_log']) {
      const error = expectError(() => send(deployForm('log', name)), MissingArgumentError, `Missing '${name}' argument`);
      expect(error.httpStatus).toBe(400);
    }
    expectError(() => send(''), MissingArgumentError, "Missing 'head' argument");
  });

  it('does not read a JSON body', () => {
    const json = JSON.stringify({ head: '3eb5f44', app: 'sample-project', user: 'u', url: 'x', git_log: 'l' });
    expectError(() => translateWith(heroku, { body: json }), MissingArgumentError, "Missing 'head' argument");
  });
});
