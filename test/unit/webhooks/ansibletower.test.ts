// Ansible Tower's and AWX's notifications, against the messages Zulip's
// zerver/webhooks/ansibletower/tests.py expects, and the requests it refuses.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError } from '../../../resolvers/errors.ts';
import { ansibletower } from '../../../resolvers/webhooks/integrations/ansibletower.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const translate = (body: unknown) => translateWith(ansibletower, { body });

function unitOfWork(friendlyName: string, id: number, name: string, path: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    id, name, status, friendly_name: friendlyName, created_by: 'admin', traceback: '',
    url: `http://awx.example.co.uk/#/jobs/${path}/${id}`,
    started: '2018-09-13T19:49:13.628571+00:00', finished: '2018-09-13T19:49:18.236014+00:00',
    ...extra,
  };
}

const host = (failed: boolean) => ({ skipped: 0, ok: failed ? 0 : 2, changed: 0, dark: failed ? 1 : 0, failed, processed: 1, failures: 0 });
const HOSTS = ['mail', 'chat', 'ipa', 'gitlab', 'devops'].map((h) => `${h}.example.co.uk`);
const hosts = (names: string[], failed: boolean) => Object.fromEntries(names.map((n) => [n, host(failed)]));

const deployJob = (status: string, names: string[]) => unitOfWork('Job', 2674, 'System - Deploy - Zabbix Agent', 'playbook', status, {
  hosts: hosts(names, status !== 'successful'), playbook: 'zabbix/deploy.yml', inventory: 'Production Servers',
});
const updatesJob = (names: string[]) => unitOfWork('Job', 2722, 'System - Updates - Ubuntu', 'playbook', 'failed', { hosts: hosts(names, true) });

describe('job', () => {
  it('reports a successful job on one host', () => {
    expectMessage(translate(deployJob('successful', ['chat.example.co.uk'])), 'System - Deploy - Zabbix Agent', `
Job: [#2674 System - Deploy - Zabbix Agent](http://awx.example.co.uk/#/jobs/playbook/2674) was successful:
* chat.example.co.uk: Success
`.trim());
  });

  it('reports a successful job on several hosts, in order of their names', () => {
    expectMessage(translate(deployJob('successful', HOSTS)), 'System - Deploy - Zabbix Agent', `
Job: [#2674 System - Deploy - Zabbix Agent](http://awx.example.co.uk/#/jobs/playbook/2674) was successful:
* chat.example.co.uk: Success
* devops.example.co.uk: Success
* gitlab.example.co.uk: Success
* ipa.example.co.uk: Success
* mail.example.co.uk: Success
`.trim());
  });

  it('reports a failed job on one host', () => {
    expectMessage(translate(updatesJob(['chat.example.co.uk'])), 'System - Updates - Ubuntu', `
Job: [#2722 System - Updates - Ubuntu](http://awx.example.co.uk/#/jobs/playbook/2722) failed:
* chat.example.co.uk: Failed
`.trim());
  });

  it('reports a failed job on several hosts', () => {
    expectMessage(translate(updatesJob(HOSTS)), 'System - Updates - Ubuntu', `
Job: [#2722 System - Updates - Ubuntu](http://awx.example.co.uk/#/jobs/playbook/2722) failed:
* chat.example.co.uk: Failed
* devops.example.co.uk: Failed
* gitlab.example.co.uk: Failed
* ipa.example.co.uk: Failed
* mail.example.co.uk: Failed
`.trim());
  });

  it('names the job from its URL when AWX 9 sends no friendly_name', () => {
    const payload = {
      id: 1, name: 'Demo Job Template', url: 'https://towerhost/#/jobs/playbook/1', created_by: 'admin', status: 'successful',
      playbook: 'hello_world.yml', hosts: { localhost: host(false) },
    };
    expectMessage(translate(payload), 'Demo Job Template', `
Job: [#1 Demo Job Template](https://towerhost/#/jobs/playbook/1) was successful:
* localhost: Success
`.trim());
  });

  it('sorts host names as Python does (a name before its extensions)', () => {
    const payload = deployJob('successful', ['web.example', 'web', 'Web']);
    expect(translate(payload).messages[0]!.content.split('\n').slice(1)).toEqual(['* Web: Success', '* web: Success', '* web.example: Success']);
  });
});

describe('project update', () => {
  const update = (status: string) => unitOfWork('Project Update', status === 'successful' ? 2677 : 2678, 'AWX - Project Update', 'project', status);

  it('reports a successful update', () => {
    expectMessage(translate(update('successful')), 'AWX - Project Update',
      'Project Update: [#2677 AWX - Project Update](http://awx.example.co.uk/#/jobs/project/2677) was successful.');
  });

  it('reports a failed update', () => {
    expectMessage(translate(update('failed')), 'AWX - Project Update',
      'Project Update: [#2678 AWX - Project Update](http://awx.example.co.uk/#/jobs/project/2678) failed.');
  });
});

describe('inventory update', () => {
  const update = (status: string) => unitOfWork('Inventory Update', 2724, 'AWX - Inventory Update', 'inventory', status);

  it('reports a successful update', () => {
    expectMessage(translate(update('successful')), 'AWX - Inventory Update',
      'Inventory Update: [#2724 AWX - Inventory Update](http://awx.example.co.uk/#/jobs/inventory/2724) was successful.');
  });

  it('reports a failed update', () => {
    expectMessage(translate(update('failed')), 'AWX - Inventory Update',
      'Inventory Update: [#2724 AWX - Inventory Update](http://awx.example.co.uk/#/jobs/inventory/2724) failed.');
  });
});

describe('ad hoc command', () => {
  const command = (status: string) => unitOfWork('AdHoc Command', 2726, 'shell: uname -r', 'command', status);

  it('reports a successful command', () => {
    expectMessage(translate(command('successful')), 'shell: uname -r',
      'AdHoc Command: [#2726 shell: uname -r](http://awx.example.co.uk/#/jobs/command/2726) was successful.');
  });

  it('reports a failed command', () => {
    expectMessage(translate(command('failed')), 'shell: uname -r',
      'AdHoc Command: [#2726 shell: uname -r](http://awx.example.co.uk/#/jobs/command/2726) failed.');
  });
});

describe('system job', () => {
  const job = (status: string) => unitOfWork('System Job', 2721, 'Cleanup Job Details', 'system', status);

  it('reports a successful system job', () => {
    expectMessage(translate(job('successful')), 'Cleanup Job Details',
      'System Job: [#2721 Cleanup Job Details](http://awx.example.co.uk/#/jobs/system/2721) was successful.');
  });

  it('reports a failed system job', () => {
    expectMessage(translate(job('failed')), 'Cleanup Job Details',
      'System Job: [#2721 Cleanup Job Details](http://awx.example.co.uk/#/jobs/system/2721) failed.');
  });

  it('names it from its URL when there is no friendly_name', () => {
    const { friendly_name: _f, ...payload } = job('failed');
    const url = 'https://towerhost/api/v2/system_jobs/2721/';
    expectMessage(translate({ ...payload, url }), 'Cleanup Job Details', `system_jobs: [#2721 Cleanup Job Details](${url}) failed.`);
  });
});

describe('refusals', () => {
  it('is registered', () => {
    expect(integrationNamed('ansibletower')).toBe(ansibletower);
  });

  it('refuses a job without hosts', () => {
    const { hosts: _h, ...payload } = deployJob('successful', []) as Record<string, unknown>;
    expect(refusalOf(() => translate(payload)).message).toBe('payload["hosts"] is missing');
  });

  it('refuses a host whose failure is not a boolean', () => {
    const payload = deployJob('successful', []);
    const message = refusalOf(() => translate({ ...payload, hosts: { localhost: { failed: 0 } } })).message;
    expect(message).toBe('payload["hosts"]["localhost"]["failed"] is not a boolean');
  });

  it('refuses an ID that is not a number', () => {
    expect(refusalOf(() => translate(unitOfWork('System Job', 1, 'x', 'system', 'failed', { id: '1' }))).message)
      .toBe('payload["id"] is not an integer');
  });

  it('refuses a friendly_name that is null', () => {
    expect(refusalOf(() => translate(unitOfWork('System Job', 1, 'x', 'system', 'failed', { friendly_name: null }))).message)
      .toBe('payload["friendly_name"] is not a string');
  });

  it('refuses a URL it cannot name the job from', () => {
    expect(refusalOf(() => translate({ id: 1, name: 'x', status: 'failed', url: 'towerhost' })).httpStatus).toBe(400);
  });

  it('refuses a body that is not JSON', () => {
    expect(refusalOf(() => translate('not json'))).toBeInstanceOf(InvalidJsonError);
  });
});
