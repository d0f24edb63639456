// OpenProject's webhooks, against the messages Zulip's zerver/webhooks/openproject/tests.py expects.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidJsonError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { openproject } from '../../../resolvers/webhooks/integrations/openproject.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, refusalOf, translateWith } from '../../support/webhooks.ts';

const send = (body: unknown): WebhookOutcome => translateWith(openproject, { body });

const user = (name: string) => ({ _type: 'User', id: 4, name, login: 'nirved431@gmail.com' });

function project(action: string, parent?: string) {
  return {
    action: `project:${action}`,
    project: {
      _type: 'Project', id: 5, identifier: 'ai-backend', name: 'AI Backend', active: true,
      _embedded: parent ? { parent: { _type: 'Project', id: 1, name: parent } } : {},
    },
  };
}

function workPackage(action: string) {
  return {
    action: `work_package:${action}`,
    work_package: {
      _type: 'WorkPackage', id: 38, subject: 'Task1',
      _embedded: { type: { _type: 'Type', id: 1, name: 'Task' }, author: user('Nirved Mishra'), project: { _type: 'Project', id: 1, name: 'Demo project' } },
    },
  };
}

function timeEntry(hours: string, workPackageSubject?: string) {
  return {
    action: 'time_entry:created',
    time_entry: {
      _type: 'TimeEntry', id: 7, hours, spentOn: '2025-01-01',
      _embedded: {
        project: { _type: 'Project', id: 3, name: 'Project1' },
        user: user('Nirved Mishra'),
        ...(workPackageSubject ? { workPackage: { _type: 'WorkPackage', id: 40, subject: workPackageSubject } } : {}),
      },
    },
  };
}

const attachment = {
  action: 'attachment:created',
  attachment: {
    _type: 'Attachment', id: 3, fileName: 'a.out', fileSize: 20144,
    _embedded: {
      author: user('Nirved Mishra'),
      container: { _type: 'WorkPackage', id: 39, subject: 'task2', _links: { project: { href: '/api/v3/projects/2', title: 'Project 2' } } },
    },
  },
};

describe('project:created', () => {
  it('names the parent project', () => {
    expectMessage(send(project('created', 'Demo project')), 'AI Backend', 'Project **AI Backend** was created as a sub-project of **Demo project**.');
  });

  it('reports a top-level project', () => {
    expectMessage(send(project('created')), 'AI Backend', 'Project **AI Backend** was created.');
  });
});

describe('project:updated', () => {
  it('does not name the parent of an updated project', () => {
    expectMessage(send(project('updated', 'Demo project')), 'AI Backend', 'Project **AI Backend** was updated.');
  });
});

describe('work_package:created', () => {
  it('names the type and the author', () => {
    expectMessage(send(workPackage('created')), 'Demo project', '**Task1** (work package **Task**) was created by **Nirved Mishra**.');
  });
});

describe('work_package:updated', () => {
  it('names the type and the author', () => {
    expectMessage(send(workPackage('updated')), 'Demo project', '**Task1** (work package **Task**) was updated by **Nirved Mishra**.');
  });
});

describe('time_entry:created', () => {
  it('names the work package', () => {
    expectMessage(send(timeEntry('PT1H', 'kl')), 'Project1', '**Nirved Mishra** logged **1 hour** on **kl**.');
  });

  it('names the project without a work package', () => {
    expectMessage(send(timeEntry('PT1H')), 'Project1', '**Nirved Mishra** logged **1 hour** on **Project1**.');
  });

  it('writes hours and minutes in words', () => {
    expectMessage(send(timeEntry('PT7H42M', 'kl')), 'Project1', '**Nirved Mishra** logged **7 hours and 42 minutes** on **kl**.');
    expectMessage(send(timeEntry('P2DT1H0M3S', 'kl')), 'Project1', '**Nirved Mishra** logged **2 days, 1 hour, 0 minutes and 3 seconds** on **kl**.');
  });

  it('says "a time entry" when the duration is not ISO 8601', () => {
    expectMessage(send(timeEntry('7.7 hours', 'kl')), 'Project1', '**Nirved Mishra** logged a time entry on **kl**.');
    expectMessage(send(timeEntry('PT', 'kl')), 'Project1', '**Nirved Mishra** logged a time entry on **kl**.');
  });
});

describe('attachment:created', () => {
  it('names the container', () => {
    expectMessage(send(attachment), 'Project 2', '**Nirved Mishra** uploaded **a.out** in **task2**.');
  });
});

describe('the integration', () => {
  it('is registered with Zulip\'s name and event types, and sends without an event type', () => {
    expect(integrationNamed('openproject')).toBe(openproject);
    expect(openproject.displayName).toBe('OpenProject');
    expect(openproject.eventTypes).toEqual(['project:created', 'project:updated', 'work_package:created', 'work_package:updated', 'time_entry:created', 'attachment:created']);
    expect(send(project('created')).eventType).toBeUndefined();
  });
});

describe('refusals', () => {
  it('ignores items it has no message for', () => {
    expectError(() => send({ action: 'membership:created', membership: {} }), UnsupportedWebhookEventTypeError,
      "The 'membership:created' event isn't currently supported by the OpenProject webhook; ignoring");
    expectError(() => send({ action: 'project' }), UnsupportedWebhookEventTypeError,
      "The 'project' event isn't currently supported by the OpenProject webhook; ignoring");
  });

  it('refuses malformed payloads', () => {
    expectError(() => send({}), BadRequestError, 'payload["action"] is missing');
    expectError(() => send({ action: 'constructor:created' }), BadRequestError, 'payload["constructor"] is missing');
    expectError(() => send({ action: 'project:created', project: { name: 7 } }), BadRequestError, 'payload["project"]["name"] is not a string');
    expectError(() => send({ action: 'project:created', project: { name: 'x', _embedded: null } }), BadRequestError, 'payload["project"]["_embedded"] is not a dict');
    expectError(() => send({ action: 'work_package:created', work_package: { subject: 'Task1' } }), BadRequestError, 'payload["work_package"]["_embedded"] is missing');
    expectError(() => send({ ...timeEntry('PT1H'), time_entry: { ...timeEntry('PT1H').time_entry, hours: 1 } }), BadRequestError, 'payload["time_entry"]["hours"] is not a string');
    expect(refusalOf(() => send('{"action":'))).toBeInstanceOf(InvalidJsonError);
  });
});
