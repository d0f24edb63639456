// Sentry's webhooks become the messages Zulip's integration writes (zerver/webhooks/sentry/tests.py):
// the payloads are trimmed to what the integration reads, in Sentry's shapes.
import { describe, it, expect } from 'vitest';
import { ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { sentry } from '../../../resolvers/webhooks/integrations/sentry.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { refusalOf } from '../../support/webhooks.ts';

function translate(payload: unknown, resource?: string) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = resource ? { 'Sentry-Hook-Resource': resource, 'Content-Type': 'application/json' } : {};
  return sentry.translate(new IncomingWebhookRequest({ body, headers }));
}

function expectMessage(payload: unknown, topic: string, content: string[], resource?: string) {
  expect(translate(payload, resource)).toEqual({ messages: [{ topic, content: content.join('\n') }] });
}

function refusal(payload: unknown): ParleyError {
  return refusalOf(() => translate(payload));
}

function expectUnsupported(payload: unknown, eventType: string) {
  const error = refusal(payload);
  expect(error).toBeInstanceOf(UnsupportedWebhookEventTypeError);
  expect(error.message).toBe(`The '${eventType}' event isn't currently supported by the Sentry webhook; ignoring`);
}

function expectBadRequest(payload: unknown, message: string) {
  const error = refusal(payload);
  expect(error).not.toBeInstanceOf(UnsupportedWebhookEventTypeError);
  expect(error.httpStatus).toBe(400);
  expect(error.message).toBe(message);
}

/** What an internal integration's alert rule sends (Sentry-Hook-Resource: event_alert). */
function eventAlert(event: Record<string, unknown>) {
  return {
    action: 'triggered',
    installation: { uuid: '65027794-169a-4042-80d0-808ece377141' },
    data: { event, triggered_rule: 'Send a notification to Zulip' },
    actor: { type: 'application', id: 'sentry', name: 'Sentry' },
  };
}

/** What the WebHooks plugin sends: the issue's URL, and the event without its link or ISO time. */
function pluginEvent(url: string, event: Record<string, unknown>) {
  return { project_name: 'live', project_slug: 'foo-live', level: 'error', message: '', url, event };
}

const HEMANTH = { type: 'user', id: 662437, name: 'Hemanth V. Alluri' };

function issuePayload(action: string, issue: Record<string, unknown>, actor: unknown = HEMANTH) {
  return { action, installation: { uuid: '65027794-169a-4042-80d0-808ece377141' }, data: { issue }, actor };
}

const INVALID_STATE_ISSUE = {
  id: '1638821441',
  title: 'Exception: program has entered an invalid state.',
  culprit: '__main__ in <module>',
  level: 'error',
  status: 'unresolved',
  platform: 'python',
  lastSeen: '2020-04-30T05:54:15.092476Z',
  firstSeen: '2020-04-30T05:54:15.092476Z',
  assignedTo: null,
  project: { id: '5216640', slug: 'zulip-integration-testing', name: 'Zulip Integration Testing', platform: 'python' },
};

describe('the registry', () => {
  it('offers Sentry by its URL name, without event types (Zulip has none)', () => {
    expect(integrationNamed('sentry')).toBe(sentry);
    expect(sentry.displayName).toBe('Sentry');
    expect(sentry.eventTypes).toBeNull();
  });
});

describe('event_alert: exceptions', () => {
  it('golang: quotes the code around the blamed line', () => {
    const outcome = {
      event_id: '80777a9cc30e4d0eb8904333d5c298b0',
      title: '*url.Error: Get "bad_url": unsupported protocol scheme ""',
      platform: 'go',
      level: 'error',
      version: '7',
      datetime: '2020-04-29T11:23:45.358741Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1637164584/events/80777a9cc30e4d0eb8904333d5c298b0/',
      metadata: { type: '*url.Error', value: 'Get "bad_url": unsupported protocol scheme ""', filename: 'trigger-exception.go' },
      exception: {
        values: [{
          type: '*url.Error',
          value: 'Get "bad_url": unsupported protocol scheme ""',
          stacktrace: {
            frames: [{
              function: 'main',
              module: 'main',
              filename: 'trigger-exception.go',
              abs_path: '/home/hemanth/go/src/trigger-exception.go',
              lineno: 31,
              pre_context: [
                '    // Set the timeout to the maximum duration the program can afford to wait.',
                '    defer sentry.Flush(2 * time.Second)',
                '',
                '    resp, err := http.Get(os.Args[1])',
                '    if err != nil {',
              ],
              context_line: '        sentry.CaptureException(err)',
              post_context: [
                '        log.Printf("reported to Sentry: %s", err)',
                '        return',
                '    }',
                '    defer resp.Body.Close()',
                '',
              ],
              in_app: true,
            }],
          },
        }],
      },
    };
    expectMessage(eventAlert(outcome), '*url.Error: Get "bad_url": unsupported protocol scheme ""', [
      '**New exception:** [*url.Error: Get "bad_url": unsupported protocol scheme ""](https://sentry.io/organizations/hypro999-personal-organization/issues/1637164584/events/80777a9cc30e4d0eb8904333d5c298b0/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-04-29T11:23:45+00:00>',
      '**filename:** trigger-exception.go',
      '```',
      '',
      'Traceback:',
      '```go',
      '         // Set the timeout to the maximum duration the program can afford to wait.',
      '         defer sentry.Flush(2 * time.Second)',
      '',
      '         resp, err := http.Get(os.Args[1])',
      '         if err != nil {',
      '--->         sentry.CaptureException(err)',
      '             log.Printf("reported to Sentry: %s", err)',
      '             return',
      '         }',
      '         defer resp.Body.Close()',
      '',
      '```',
    ], 'event_alert');
  });

  it('node: highlights as javascript', () => {
    const event = {
      event_id: 'f9cb0f2afff74a5aa92e766fb7ac3fe3',
      title: 'Error: Sample error from node.',
      platform: 'node',
      level: 'error',
      version: '7',
      datetime: '2020-04-30T06:19:33.446000Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1638852747/events/f9cb0f2afff74a5aa92e766fb7ac3fe3/',
      metadata: { type: 'Error', value: 'Sample error from node.', filename: '/home/hemanth/Desktop/sentry/trigger-exception.js' },
      exception: {
        values: [{
          type: 'Error',
          value: 'Sample error from node.',
          stacktrace: {
            frames: [
              { function: 'Module._compile', module: 'internal.modules.cjs:loader', filename: 'internal/modules/cjs/loader.js', lineno: 1133, in_app: false },
              {
                function: 'Object.<anonymous>',
                filename: '/home/hemanth/Desktop/sentry/trigger-exception.js',
                abs_path: '/home/hemanth/Desktop/sentry/trigger-exception.js',
                lineno: 10,
                pre_context: [
                  "  dsn: 'https://redacted.ingest.sentry.io/5216640',",
                  '});',
                  '',
                  'Sentry.withScope(function(scope) {',
                  '  scope.addEventProcessor(function(event, hint) {',
                  '    return event;',
                  '  });',
                ],
                context_line: "  Sentry.captureException(new Error('Sample error from node.'));",
                post_context: ['});', '', ''],
                in_app: true,
              },
            ],
          },
        }],
      },
    };
    expectMessage(eventAlert(event), 'Error: Sample error from node.', [
      '**New exception:** [Error: Sample error from node.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638852747/events/f9cb0f2afff74a5aa92e766fb7ac3fe3/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-04-30T06:19:33+00:00>',
      '**filename:** /home/hemanth/Desktop/sentry/trigger-exception.js',
      '```',
      '',
      'Traceback:',
      '```javascript',
      "       dsn: 'https://redacted.ingest.sentry.io/5216640',",
      '     });',
      '',
      '     Sentry.withScope(function(scope) {',
      '       scope.addEventProcessor(function(event, hint) {',
      '         return event;',
      '       });',
      "--->   Sentry.captureException(new Error('Sample error from node.'));",
      '     });',
      '',
      '',
      '```',
    ]);
  });

  it('python: blank lines of context stay blank', () => {
    const event = {
      event_id: '599349254a1447a99774b5310711c1a8',
      title: 'Exception: Custom exception!',
      platform: 'python',
      level: 'error',
      version: '7',
      datetime: '2020-04-28T13:56:05.903736Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1635244907/events/599349254a1447a99774b5310711c1a8/',
      metadata: { function: '<module>', type: 'Exception', value: 'Custom exception!', filename: 'trigger-exception.py' },
      exception: {
        values: [{
          type: 'Exception',
          value: 'Custom exception!',
          stacktrace: {
            frames: [{
              function: '<module>',
              module: '__main__',
              filename: 'trigger-exception.py',
              abs_path: '/home/hemanth/Desktop/sentry/trigger-exception.py',
              lineno: 7,
              pre_context: ['', '', 'if __name__ == "__main__":', '    sentry_sdk.init(dsn=SECRET_DSN)', '    try:'],
              context_line: '        raise Exception("Custom exception!")',
              post_context: ['    except Exception as e:', '        sentry_sdk.capture_exception(e)', ''],
            }],
          },
        }],
      },
    };
    expectMessage(eventAlert(event), 'Exception: Custom exception!', [
      '**New exception:** [Exception: Custom exception!](https://sentry.io/organizations/hypro999-personal-organization/issues/1635244907/events/599349254a1447a99774b5310711c1a8/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-04-28T13:56:05+00:00>',
      '**filename:** trigger-exception.py',
      '```',
      '',
      'Traceback:',
      '```python3',
      '',
      '',
      '     if __name__ == "__main__":',
      '         sentry_sdk.init(dsn=SECRET_DSN)',
      '         try:',
      '--->         raise Exception("Custom exception!")',
      '         except Exception as e:',
      '             sentry_sdk.capture_exception(e)',
      '',
      '```',
    ]);
  });

  it('rails: the innermost frame of the blamed file, from the last exception with a stack trace', () => {
    const controller = 'app/controllers/articles_controller.rb';
    const event = {
      event_id: '49b528e13e45497ab9adc3173fd2ed34',
      title: 'ZeroDivisionError: divided by 0',
      platform: 'ruby',
      level: 'error',
      version: '7',
      datetime: '2023-05-29T10:12:33.581000Z',
      web_url: 'https://sentry.io/organizations/nitk-46/issues/4213933362/events/49b528e13e45497ab9adc3173fd2ed34/',
      metadata: { type: 'ZeroDivisionError', value: 'divided by 0', filename: controller },
      exception: {
        values: [
          { type: 'StandardError', value: 'an earlier cause', stacktrace: { frames: [{ filename: controller, context_line: '  raise StandardError' }] } },
          {
            type: 'ZeroDivisionError',
            value: 'divided by 0',
            stacktrace: {
              frames: [
                { function: 'process_action', filename: 'actionpack/lib/action_controller/metal/basic_implicit_render.rb', context_line: '        super.tap { default_render unless performed? }' },
                { function: 'index', filename: controller, lineno: 3, context_line: '  def index', pre_context: ['class ArticlesController < ApplicationController', ''], post_context: [''] },
                {
                  function: '/',
                  filename: controller,
                  abs_path: `/home/user/blog/${controller}`,
                  lineno: 7,
                  pre_context: ['class ArticlesController < ApplicationController', '', '  def index', '', '    begin', ''],
                  context_line: '      132312 / 0',
                  post_context: ['', '    rescue ZeroDivisionError => exception', '', '      Sentry.capture_exception(exception)', '', '    end', ''],
                  in_app: true,
                },
              ],
            },
          },
        ],
      },
    };
    expectMessage(eventAlert(event), 'ZeroDivisionError: divided by 0', [
      '**New exception:** [ZeroDivisionError: divided by 0](https://sentry.io/organizations/nitk-46/issues/4213933362/events/49b528e13e45497ab9adc3173fd2ed34/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2023-05-29T10:12:33+00:00>',
      '**filename:** app/controllers/articles_controller.rb',
      '```',
      '',
      'Traceback:',
      '```ruby',
      '     class ArticlesController < ApplicationController',
      '',
      '       def index',
      '',
      '         begin',
      '',
      '--->       132312 / 0',
      '',
      '         rescue ZeroDivisionError => exception',
      '',
      '           Sentry.capture_exception(exception)',
      '',
      '         end',
      '',
      '```',
    ]);
  });

  it('vue: no traceback when the blamed frame has no source (Zulip truncates the topic when sending)', () => {
    const title = "TypeError: Cannot read properties of null (reading 'insertBefore')";
    const event = {
      event_id: '292f78454e774e62999506f759ad791d',
      title,
      platform: 'javascript',
      level: 'error',
      version: '7',
      datetime: '2023-05-29T11:08:30.117000Z',
      web_url: 'https://sentry.io/organizations/nitk-46/issues/4214010673/events/292f78454e774e62999506f759ad791d/',
      metadata: { type: 'TypeError', value: "Cannot read properties of null (reading 'insertBefore')", filename: '/node_modules/.vite/deps/chunk-G4DFXOZZ.js' },
      exception: {
        values: [{
          type: 'TypeError',
          value: "Cannot read properties of null (reading 'insertBefore')",
          stacktrace: { frames: [{ function: 'insert', filename: '/node_modules/.vite/deps/chunk-G4DFXOZZ.js', abs_path: 'http://localhost:5173/node_modules/.vite/deps/chunk-G4DFXOZZ.js', lineno: 7712, colno: 14, in_app: false }] },
        }],
      },
    };
    const content = [
      "**New exception:** [TypeError: Cannot read properties of null (reading 'insertBefore')](https://sentry.io/organizations/nitk-46/issues/4214010673/events/292f78454e774e62999506f759ad791d/)",
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2023-05-29T11:08:30+00:00>',
      '**filename:** /node_modules/.vite/deps/chunk-G4DFXOZZ.js',
      '```',
    ];
    expectMessage(eventAlert(event), title, content);
    // The framework's topic normalization (60 characters) makes Zulip's expected topic.
    expect(`${title.slice(0, 57)}...`).toBe("TypeError: Cannot read properties of null (reading 'inser...");
  });

  it('js: no traceback when the blamed frame\'s context_line is null', () => {
    const filename = '/mnt/data/Documents/Stuff%20for%20Zulip/Repos/sentry/js/external.js';
    const event = {
      event_id: '355c3b2a142046629dd410db2fdda003',
      title: 'Error: Something external broke.',
      platform: 'javascript',
      level: 'error',
      version: '7',
      datetime: '2020-06-17T14:42:54.047000Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1731239773/events/355c3b2a142046629dd410db2fdda003/',
      metadata: { type: 'Error', value: 'Something external broke.', filename },
      exception: {
        values: [{
          type: 'Error',
          value: 'Something external broke.',
          stacktrace: { frames: [{ function: 'doSomething', filename, abs_path: `file://${filename}`, lineno: 3, colno: 11, context_line: null, pre_context: null, post_context: null }] },
        }],
      },
    };
    expectMessage(eventAlert(event), 'Error: Something external broke.', [
      '**New exception:** [Error: Something external broke.](https://sentry.io/organizations/hypro999-personal-organization/issues/1731239773/events/355c3b2a142046629dd410db2fdda003/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-06-17T14:42:54+00:00>',
      `**filename:** ${filename}`,
      '```',
    ]);
  });

  it('keeps the offset the time was sent with, in whole seconds', () => {
    const event = {
      title: 'Exception: Custom exception!', platform: 'python', level: 'warning', version: 7,
      datetime: '2020-04-28T15:56:05.999999+02:00', web_url: 'https://sentry.example/e/1/',
      metadata: {}, exception: { values: [{ type: 'Exception' }] },
    };
    expectMessage(eventAlert(event), 'Exception: Custom exception!', [
      '**New exception:** [Exception: Custom exception!](https://sentry.example/e/1/)',
      '```quote',
      '**level:** warning',
      '**timestamp:** <time:2020-04-28T15:56:05+02:00>',
      '**filename:** None',
      '```',
    ]);
  });
});

describe('event_alert: messages', () => {
  function messageEvent(overrides: Record<string, unknown>) {
    return { platform: 'python', level: 'info', version: '7', logentry: { formatted: overrides.title, message: null, params: null }, metadata: { title: overrides.title }, ...overrides };
  }

  it('golang', () => {
    const event = messageEvent({
      title: 'A test message event from golang.', platform: 'go', datetime: '2020-04-30T06:14:13.092476Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1638844654/events/01ecb45633bc4f5ca940ada671124c8f/',
    });
    expectMessage(eventAlert(event), 'A test message event from golang.', [
      '**New message event:** [A test message event from golang.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638844654/events/01ecb45633bc4f5ca940ada671124c8f/)',
      '```quote',
      '**level:** info',
      '**timestamp:** <time:2020-04-30T06:14:13+00:00>',
      '```',
    ], 'event_alert');
  });

  it('node', () => {
    const event = messageEvent({
      title: 'Test event from node.', platform: 'node', datetime: '2020-04-30T06:09:56.751000Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1638840427/events/6886bb1fe7ce4497b7836f6083d5fd34/',
    });
    expectMessage(eventAlert(event), 'Test event from node.', [
      '**New message event:** [Test event from node.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638840427/events/6886bb1fe7ce4497b7836f6083d5fd34/)',
      '```quote',
      '**level:** info',
      '**timestamp:** <time:2020-04-30T06:09:56+00:00>',
      '```',
    ]);
  });

  it('python', () => {
    const event = messageEvent({
      title: 'A simple message-based issue.', datetime: '2020-04-28T14:05:04.628453Z',
      web_url: 'https://sentry.io/organizations/hypro999-personal-organization/issues/1635261062/events/8da63b42375e4d3b803c377fefb062f8/',
    });
    expectMessage(eventAlert(event), 'A simple message-based issue.', [
      '**New message event:** [A simple message-based issue.](https://sentry.io/organizations/hypro999-personal-organization/issues/1635261062/events/8da63b42375e4d3b803c377fefb062f8/)',
      '```quote',
      '**level:** info',
      '**timestamp:** <time:2020-04-28T14:05:04+00:00>',
      '```',
    ]);
  });

  it("Sentry's sample event is accepted despite its Raven-era version", () => {
    const event = messageEvent({
      title: 'This is an example Python exception', level: 'error', version: '5', datetime: '2023-05-31T11:06:16.458000Z',
      web_url: 'https://sentry.io/organizations/nitk-46/issues/4218258981/events/b6eff1a49b1f4132850b1238d968da70/',
    });
    expectMessage(eventAlert(event), 'This is an example Python exception', [
      '**New message event:** [This is an example Python exception](https://sentry.io/organizations/nitk-46/issues/4218258981/events/b6eff1a49b1f4132850b1238d968da70/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2023-05-31T11:06:16+00:00>',
      '```',
    ]);
  });

  it('refuses events from the Raven Python SDK', () => {
    const event = messageEvent({ title: 'A message from raven', version: '6', datetime: '2020-04-28T14:05:04Z', web_url: 'https://sentry.example/e/2/' });
    expectUnsupported(eventAlert(event), 'Raven SDK');
  });

  it('refuses an event that is neither an exception nor a message', () => {
    const event = { title: 'A transaction', platform: 'python', level: 'info', version: '7', datetime: '2020-04-28T14:05:04Z', web_url: 'https://sentry.example/e/3/' };
    expectUnsupported(eventAlert(event), 'unknown-event type');
  });
});

describe('the WebHooks plugin: events', () => {
  it('python exception: the link and time come from the issue URL and the epoch timestamp', () => {
    const payload = pluginEvent('https://sentry.io/organizations/bar-foundation/issues/1972208801/?referrer=webhooks_plugin', {
      event_id: 'c916dccfd58e41dcabaebef0091f0736',
      title: 'ValueError: new sentry error.',
      platform: 'python',
      version: '7',
      level: 'error',
      timestamp: 1603322711.147672,
      received: 1603322712.317751,
      metadata: { function: '<module>', type: 'ValueError', value: 'new sentry error.', filename: 'trigger-exception.py' },
      exception: {
        values: [{
          type: 'ValueError',
          value: 'new sentry error.',
          stacktrace: {
            frames: [{
              function: '<module>',
              filename: 'trigger-exception.py',
              pre_context: ['', '', 'if __name__ == "__main__":', '    sentry_sdk.init(dsn=DSN_SECRET)', '    try:'],
              context_line: '        raise ValueError("new sentry error.")',
              post_context: ['    except Exception as e:', '        sentry_sdk.capture_exception(e)'],
            }],
          },
        }],
      },
    });
    expectMessage(payload, 'ValueError: new sentry error.', [
      '**New exception:** [ValueError: new sentry error.](https://sentry.io/organizations/bar-foundation/issues/1972208801/events/c916dccfd58e41dcabaebef0091f0736/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-10-21T23:25:11+00:00>',
      '**filename:** trigger-exception.py',
      '```',
      '',
      'Traceback:',
      '```python3',
      '',
      '',
      '     if __name__ == "__main__":',
      '         sentry_sdk.init(dsn=DSN_SECRET)',
      '         try:',
      '--->         raise ValueError("new sentry error.")',
      '         except Exception as e:',
      '             sentry_sdk.capture_exception(e)',
      '```',
    ]);
  });

  it('javascript exception without a filename prints None', () => {
    const payload = pluginEvent('https://sentry.io/organizations/foo-bar-org/issues/1982047746/?referrer=webhooks_plugin', {
      event_id: 'f3bf5fc4e354451db9e885a69b2a2b51',
      title: 'TypeError: can\'t access property "bar", x.foo is undefined',
      platform: 'javascript',
      version: '7',
      level: 'error',
      timestamp: 1603730394.567,
      received: 1603730395.101,
      metadata: { type: 'TypeError', value: 'can\'t access property "bar", x.foo is undefined' },
      exception: { values: [{ type: 'TypeError', value: 'can\'t access property "bar", x.foo is undefined', stacktrace: { frames: [{ filename: 'app.js', context_line: 'x.foo.bar' }] } }] },
    });
    expectMessage(payload, 'TypeError: can\'t access property "bar", x.foo is undefined', [
      '**New exception:** [TypeError: can\'t access property "bar", x.foo is undefined](https://sentry.io/organizations/foo-bar-org/issues/1982047746/events/f3bf5fc4e354451db9e885a69b2a2b51/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-10-26T16:39:54+00:00>',
      '**filename:** None',
      '```',
    ]);
  });

  it("Sentry's sample event", () => {
    const payload = pluginEvent('https://nitk-46.sentry.io/issues/4218258981/?referrer=webhooks_plugin', {
      event_id: '4dc4fc2858aa450eb658be9e5b8ad149',
      title: 'This is an example Python exception',
      platform: 'python',
      version: '5',
      level: 'error',
      received: 1688935284.5,
      logentry: { formatted: 'This is an example Python exception' },
    });
    expectMessage(payload, 'This is an example Python exception', [
      '**New message event:** [This is an example Python exception](https://nitk-46.sentry.io/issues/4218258981/events/4dc4fc2858aa450eb658be9e5b8ad149/)',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2023-07-09T20:41:24+00:00>',
      '```',
    ]);
  });

  it('joins the event to an issue URL without a trailing slash as Python does', () => {
    const payload = pluginEvent('https://sentry.example/issues/7', {
      event_id: 'abc', title: 'Hi', platform: 'go', level: 'info', timestamp: 0, received: 1, logentry: {},
    });
    const [message] = translate(payload).messages;
    expect(message?.content).toContain('[Hi](https://sentry.example/issues/events/abc/)');
    expect(message?.content).toContain('<time:1970-01-01T00:00:00+00:00>');
  });
});

describe('issue webhooks', () => {
  it('created, for an exception', () => {
    const issue = { ...INVALID_STATE_ISSUE, title: 'Exception: Custom exception!', lastSeen: '2020-04-28T13:56:05.903736Z' };
    expectMessage(issuePayload('created', issue), 'Exception: Custom exception!', [
      '**New issue created:** Exception: Custom exception!',
      '```quote',
      '**level:** error',
      '**timestamp:** <time:2020-04-28T13:56:05+00:00>',
      '**assignee:** No one',
      '```',
    ], 'issue');
  });

  it('created, for a message', () => {
    const issue = { ...INVALID_STATE_ISSUE, title: 'A simple message-based issue.', level: 'info', lastSeen: '2020-04-28T14:05:04.628453Z' };
    expectMessage(issuePayload('created', issue), 'A simple message-based issue.', [
      '**New issue created:** A simple message-based issue.',
      '```quote',
      '**level:** info',
      '**timestamp:** <time:2020-04-28T14:05:04+00:00>',
      '**assignee:** No one',
      '```',
    ]);
  });

  it('assigned to an individual', () => {
    const issue = { ...INVALID_STATE_ISSUE, title: 'A test message event from golang.', assignedTo: { type: 'user', id: '662437', name: 'Hemanth V. Alluri', email: 'hemanth@example.com' } };
    expectMessage(issuePayload('assigned', issue), 'A test message event from golang.', [
      'Issue **A test message event from golang.** has now been assigned to **Hemanth V. Alluri** by **Hemanth V. Alluri**.',
    ]);
  });

  it('assigned to a team', () => {
    const issue = { ...INVALID_STATE_ISSUE, assignedTo: { type: 'team', id: '473371', name: 'lone-wolf' } };
    expectMessage(issuePayload('assigned', issue), 'Exception: program has entered an invalid state.', [
      'Issue **Exception: program has entered an invalid state.** has now been assigned to **team lone-wolf** by **Hemanth V. Alluri**.',
    ]);
  });

  it('ignored', () => {
    expectMessage(issuePayload('ignored', { ...INVALID_STATE_ISSUE, status: 'ignored' }), 'Exception: program has entered an invalid state.', [
      'Issue **Exception: program has entered an invalid state.** was ignored by **Hemanth V. Alluri**.',
    ]);
  });

  it('resolved', () => {
    expectMessage(issuePayload('resolved', { ...INVALID_STATE_ISSUE, status: 'resolved' }), 'Exception: program has entered an invalid state.', [
      'Issue **Exception: program has entered an invalid state.** was marked as resolved by **Hemanth V. Alluri**.',
    ]);
  });

  it('refuses actions Zulip has no message for', () => {
    expectUnsupported(issuePayload('unresolved', INVALID_STATE_ISSUE), 'unresolved action');
    expectUnsupported(issuePayload('archived', INVALID_STATE_ISSUE), 'archived action');
  });
});

describe('the WebHooks plugin: legacy payloads', () => {
  it('quotes the message under the level in capitals', () => {
    const payload = {
      project: 'zulip', project_name: 'zulip', culprit: 'raven.scripts.runner in main', level: 'error',
      url: 'https://sentry.io/zulip/zulip/issues/156699934/', logger: null, message: 'This is an example python exception', id: '156699934',
      event: { received: 1473185565.0, version: '5', type: 'default' },
    };
    expectMessage(payload, 'zulip', [
      'New [issue](https://sentry.io/zulip/zulip/issues/156699934/) (level: ERROR):',
      '',
      '``` quote',
      'This is an example python exception',
      '```',
    ]);
  });

  it('prints what is missing as Python does (None)', () => {
    expectMessage({ level: 'warning', data: {} }, 'None', ['New [issue](None) (level: WARNING):', '', '``` quote', 'None', '```']);
  });
});

describe('other resources and malformed payloads', () => {
  it('refuses resources Zulip has no message for, naming their keys as Python prints a list', () => {
    expectUnsupported({ action: 'created', data: { installation: { uuid: 'x' } }, actor: HEMANTH }, "['installation']");
    expectUnsupported(
      { action: 'critical', data: { metric_alert: {}, description_text: 'x', description_title: "It's \"high\"", web_url: 'https://sentry.example' } },
      "['metric_alert', 'description_text', 'description_title', 'web_url']",
    );
    expectUnsupported({ action: 'created', data: { "it's": 1 } }, `["it's"]`);
  });

  it('refuses a body that is not JSON', () => {
    expectBadRequest('{"data": ', 'Malformed JSON');
  });

  it('names a missing key', () => {
    const { lastSeen: _, ...issue } = INVALID_STATE_ISSUE;
    expectBadRequest(issuePayload('resolved', issue), 'payload["data"]["issue"]["lastSeen"] is missing');
    expectBadRequest({ data: { issue: INVALID_STATE_ISSUE } }, 'payload["action"] is missing');
    expectBadRequest({ project_name: 'zulip' }, 'payload["level"] is missing');
    expectBadRequest(pluginEvent('https://sentry.example/issues/1/', { event_id: 'abc', timestamp: 1 }), 'payload["event"]["received"] is missing');
  });

  it('names a value of the wrong type', () => {
    expectBadRequest(eventAlert({ title: 42 }), 'payload["data"]["event"]["title"] is not a string');
    expectBadRequest(issuePayload('assigned', { ...INVALID_STATE_ISSUE, assignedTo: 'someone' }), 'payload["data"]["issue"]["assignedTo"] is not a dict');
    expectBadRequest(issuePayload('resolved', INVALID_STATE_ISSUE, null), 'payload["actor"] is not a dict');
    expectBadRequest({ data: 'event' }, 'payload["data"] is not a dict');
    expectBadRequest({ event: null }, 'payload["event"] is not a dict');
    expectBadRequest(
      eventAlert({ title: 't', platform: 'python', version: 'seven', level: 'error' }),
      'payload["data"]["event"]["version"] is not an integer',
    );
    const frames = { values: [{ stacktrace: { frames: [{ filename: 'a.py', context_line: 'x', pre_context: 'not a list' }] } }] };
    expectBadRequest(
      eventAlert({ title: 't', platform: 'go', level: 'error', datetime: '2020-01-01T00:00:00Z', web_url: 'u', metadata: { filename: 'a.py' }, exception: frames }),
      'payload["data"]["event"]["exception"]["values"][0]["stacktrace"]["frames"][0]["pre_context"] is not a list',
    );
  });

  it('refuses times Python could not read', () => {
    const event = (datetime: unknown) => eventAlert({ title: 't', platform: 'go', level: 'info', web_url: 'u', logentry: {}, datetime });
    for (const datetime of ['2020-04-28T14:05:04', 'yesterday', '2020-02-30T00:00:00Z', '2020-04-28T24:00:00Z']) {
      expectBadRequest(event(datetime), 'payload["data"]["event"]["datetime"] is not a date and time with a time zone');
    }
    expectBadRequest(
      pluginEvent('https://sentry.example/issues/1/', { event_id: 'abc', title: 't', platform: 'go', level: 'info', received: 1e300, logentry: {} }),
      'payload["event"]["received"] is not a valid time',
    );
  });
});
