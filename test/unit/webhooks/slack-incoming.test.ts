// Expected messages are those of Zulip's zerver/webhooks/slack_incoming/tests.py; the payloads are
// written here in the shape Slack documents for incoming webhooks.
import { describe, expect, it } from 'vitest';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { slackIncoming } from '../../../resolvers/webhooks/integrations/slack-incoming.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { refusalOf } from '../../support/webhooks.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';

// What the view returns without a `channel`; sending stores it as the empty topic, which is why
// Zulip's newer tests.py expects "".
const NO_TOPIC = '(no topic)';

function postJson(payload: unknown, params: Record<string, string> = {}): WebhookOutcome {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return slackIncoming.translate(new IncomingWebhookRequest({ body, headers: { 'Content-Type': 'application/json' }, params }));
}

function postForm(payload: unknown): WebhookOutcome {
  const field = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const body = new URLSearchParams({ payload: field }).toString();
  return slackIncoming.translate(new IncomingWebhookRequest({
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    params: { payload: field },
  }));
}

function message(outcome: WebhookOutcome): { topic: string; content: string } {
  expect(outcome.eventType).toBeUndefined();
  expect(outcome.messages).toHaveLength(1);
  return outcome.messages[0]!;
}

const refusal = refusalOf;

const CAT = 'https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg';
const HOTEL = 'https://is5-ssl.mzstatic.com/image/thumb/Purple3/v4/d3/72/5c/d3725c8f-c642-5d69-1904-aa36e4297885/source/256x256bb.jpg';

describe('registration', () => {
  it('is slack_incoming, named as Zulip\'s webhook_view names it, without event types', () => {
    expect(integrationNamed('slack_incoming')).toBe(slackIncoming);
    expect(slackIncoming.displayName).toBe('SlackIncoming');
    expect(slackIncoming.eventTypes).toBeNull();
  });
});

describe('plain text', () => {
  it('posts the text to "(no topic)" when there is no channel', () => {
    expect(message(postJson({ text: 'Hello, world.' }))).toEqual({ topic: NO_TOPIC, content: 'Hello, world.' });
  });

  it('reads the payload form field, puts icon_emoji first and takes the channel (without # or @) as the topic', () => {
    const payload = {
      username: 'DeployBot',
      icon_url: 'https://example.com/deploybot.png',
      icon_emoji: ':zap:',
      text: 'chris has started deploying project tag v0.0.2rc10 to staging',
      channel: '#devops',
    };
    expect(message(postForm(payload))).toEqual({
      topic: 'devops',
      content: ':zap: chris has started deploying project tag v0.0.2rc10 to staging',
    });
    expect(message(postForm({ text: 'ping', channel: '@iago' })).topic).toBe('iago');
  });

  it('takes `payload` from the query string when the body is not JSON', () => {
    const request = new IncomingWebhookRequest({ body: '', params: { payload: '{"text":"from the query"}' } });
    expect(message(slackIncoming.translate(request)).content).toBe('from the query');
  });

  it('leaves the topic to the URL when it names one, without reading the channel', () => {
    expect(message(postJson({ text: 'hi', channel: '#ops' }, { topic: 'deploys' })).topic).toBe('deploys');
    expect(message(postJson({ text: 'hi', channel: 42 }, { topic: 'deploys' })).content).toBe('hi');
  });

  it('ignores text when blocks or attachments say something', () => {
    const outcome = postJson({ text: 'fallback', blocks: [{ type: 'divider' }] });
    expect(message(outcome).content).toBe('----');
  });
});

describe('mrkdwn', () => {
  const converted = (text: string) => message(postJson({ text })).content;

  it('turns Slack emphasis into Zulip\'s, whole words only', () => {
    expect(converted('some *foo* word')).toBe('some **foo** word');
    expect(converted('*foo*')).toBe('**foo**');
    expect(converted('*foo* *bar*')).toBe('**foo** **bar**');
    expect(converted('*foo*a*bar*')).toBe('*foo*a*bar*');
    expect(converted('some _foo_ word')).toBe('some *foo* word');
    expect(converted('it is ~gone~ now, and snake_case_name stays')).toBe('it is ~~gone~~ now, and snake_case_name stays');
    expect(converted('*line one*\n_line two_')).toBe('**line one**\n*line two*');
    expect(converted('`*code*` and (*paren*) and a*b*c')).toBe('`*code*` and (**paren**) and a*b*c');
  });

  it('turns <url|label> into Markdown links, bare <url> into URLs and mailto links into addresses', () => {
    expect(converted('See <https://example.com/build/42|build 42> or <https://example.com>'))
      .toBe('See [build 42](https://example.com/build/42) or https://example.com');
    expect(converted('Mail <mailto:ops@example.com|ops@example.com>')).toBe('Mail mailto:ops@example.com');
  });

  it('leaves Slack user, channel and workspace mentions as they are, as Zulip does', () => {
    expect(converted('<@U024BE7LH> joined <#C024BE7LR|general>; <!here>'))
      .toBe('<@U024BE7LH> joined <#C024BE7LR|general>; <!here>');
  });
});

describe('blocks', () => {
  const review = (text: string) => [
    { type: 'section', text: { type: 'mrkdwn', text } },
    {
      type: 'section',
      block_id: 'review-body',
      text: {
        type: 'mrkdwn',
        text: '<https://example.com|Overlook Hotel> \n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.',
      },
      accessory: { type: 'image', image_url: HOTEL, alt_text: 'Haunted hotel image' },
    },
    { type: 'section', block_id: 'rating', fields: [{ type: 'mrkdwn', text: '*Average Rating*\n1.0' }] },
  ];
  const reviewMessage = (intro: string, link: string) => `${intro}

[Overlook Hotel](${link}) \n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.

[Haunted hotel image](${HOTEL})

**Average Rating**
1.0`;

  it('renders sections with their image accessory and a lone field', () => {
    const payload = { text: 'Danny Torrence left a 1 star review for your property.', blocks: review('Danny Torrence left the following review for your property:') };
    expect(message(postJson(payload))).toEqual({
      topic: NO_TOPIC,
      content: reviewMessage('Danny Torrence left the following review for your property:', 'https://example.com'),
    });
  });

  it('skips actions blocks (buttons) and takes a channel ID as the topic', () => {
    const blocks = review('Danny Torrence left the following _review_ for your property:');
    blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Reply to review' } }] } as never);
    expect(message(postJson({ channel: 'C1H9RESGL', blocks }))).toEqual({
      topic: 'C1H9RESGL',
      content: reviewMessage('Danny Torrence left the following *review* for your property:', 'https://example.com'),
    });
  });

  it('renders headers, titled images, dividers and context, and skips inputs and select menus', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Hello from TaskBot', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: "Hey there 👋 I'm TaskBot. I'm here to help you create and manage tasks in Slack.\nThere are two ways to quickly create tasks:" } },
      { type: 'section', text: { type: 'mrkdwn', text: "*1️⃣ Use the `/task` command*. Type `/task` followed by a short description of your tasks and I'll ask for a due date (if applicable). Try it out by using the `/task` command in this channel." } },
      { type: 'section', text: { type: 'mrkdwn', text: "*2️⃣ Use the _Create a Task_ action.* If you want to create a task from a message, select `Create a Task` in a message's context menu. Try it out by selecting the _Create a Task_ action for this message (shown below)." } },
      { type: 'image', title: { type: 'plain_text', text: 'image1' }, image_url: 'https://api.slack.com/img/blocks/bkb_template_images/onboardingComplex.jpg', alt_text: 'onboarding' },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: "➕ To start tracking your team's tasks, *add me to a channel* and I'll introduce myself. I'm usually added to a team or project channel. Type `/invite @TaskBot` from the channel or pick a channel on the right." },
        accessory: { type: 'conversations_select', placeholder: { type: 'plain_text', text: 'Select a channel...' } },
      },
      { type: 'input', element: { type: 'plain_text_input', action_id: 'task' }, label: { type: 'plain_text', text: 'Try writing some task in here:' } },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          { type: 'image', image_url: CAT, alt_text: 'cute cat' },
          { type: 'mrkdwn', text: '👀 View all tasks with `/task list`' },
          { type: 'mrkdwn', text: '❓Get help at any time with:\n- `/task help`, or\n- type *help* in a DM with me' },
        ],
      },
    ];
    expect(message(postJson({ blocks }))).toEqual({
      topic: NO_TOPIC,
      content: `## Hello from TaskBot

Hey there 👋 I'm TaskBot. I'm here to help you create and manage tasks in Slack.
There are two ways to quickly create tasks:

**1️⃣ Use the \`/task\` command**. Type \`/task\` followed by a short description of your tasks and I'll ask for a due date (if applicable). Try it out by using the \`/task\` command in this channel.

**2️⃣ Use the *Create a Task* action.** If you want to create a task from a message, select \`Create a Task\` in a message's context menu. Try it out by selecting the *Create a Task* action for this message (shown below).

[image1](https://api.slack.com/img/blocks/bkb_template_images/onboardingComplex.jpg)

➕ To start tracking your team's tasks, **add me to a channel** and I'll introduce myself. I'm usually added to a team or project channel. Type \`/invite @TaskBot\` from the channel or pick a channel on the right.

----

[cute cat](${CAT})

👀 View all tasks with \`/task list\`

❓Get help at any time with:
- \`/task help\`, or
- type **help** in a DM with me`,
    });
  });

  it('uses alt_text for an image block without a title', () => {
    expect(message(postJson({ blocks: [{ type: 'image', image_url: CAT, alt_text: 'cute cat' }] })).content).toBe(`[cute cat](${CAT})`);
  });

  it('drops an accessory image whose URL is broken, keeping the text', () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'Some image here' }, accessory: { type: 'image', alt_text: 'yay', image_url: 'null' } }];
    expect(message(postJson({ blocks }))).toEqual({ topic: NO_TOPIC, content: 'Some image here' });
  });

  it('lays out several fields as a two-column table without header, newlines or pipes', () => {
    const fields = ['Status', 'Deployed\nto prod', 'Owner', 'a|b', 'Region'].map((text) => ({ type: 'plain_text', text }));
    expect(message(postJson({ blocks: [{ type: 'section', fields }] })).content)
      .toBe('| | |\n|-|-|\n| Status | Deployed to prod |\n| Owner | a b |\n| Region |  |');
  });
});

describe('attachments', () => {
  it('renders a Prometheus Alertmanager alert (title link, mrkdwn text) in the channel\'s topic', () => {
    const text = [
      ':chart_with_upwards_trend: *<http://generator.local/1|Graph>*   :notebook: *<https://runbook.local/1|Runbook>*',
      '',
      '*Alert details*:',
      ...['8080', '8081'].flatMap((port, i) => [
        ...(i > 0 ? [''] : []),
        '*Alert:* api-server down - `critical`',
        `*Description:* api-server at 1.2.3.4:${port} couldn't be scraped *Details:*`,
        '   • *alertname:* `InstanceDown`',
        '   • *env:* `prod`',
        `   • *instance:* \`1.2.3.4:${port}\``,
        '   • *job:* `api-server`',
        '   • *severity:* `critical`',
      ]),
      '  ',
      '',
    ].join('\n');
    const payload = {
      channel: '#prometheus-alerts',
      username: 'Alertmanager',
      blocks: null,
      attachments: [{
        title: '[FIRING:2] InstanceDown for api-server (env="prod", severity="critical")',
        title_link: 'https://alertmanager.local//#/alerts?receiver=default',
        text,
        fallback: '[FIRING:2] InstanceDown api-server (prod critical)',
        footer: '',
        color: 'danger',
        mrkdwn_in: ['fallback', 'pretext', 'text'],
      }],
    };
    const details = (port: string) => `**Alert:** api-server down - \`critical\`
**Description:** api-server at 1.2.3.4:${port} couldn't be scraped **Details:**
   • **alertname:** \`InstanceDown\`
   • **env:** \`prod\`
   • **instance:** \`1.2.3.4:${port}\`
   • **job:** \`api-server\`
   • **severity:** \`critical\``;
    expect(message(postJson(payload))).toEqual({
      topic: 'prometheus-alerts',
      content: `## [[FIRING:2] InstanceDown for api-server (env="prod", severity="critical")](https://alertmanager.local//#/alerts?receiver=default)

:chart_with_upwards_trend: **[Graph](http://generator.local/1)**   :notebook: **[Runbook](https://runbook.local/1)**

**Alert details**:
${details('8080')}

${details('8081')}`,
    });
  });

  it('renders blocks inside an attachment, skipping a button accessory', () => {
    const payload = {
      attachments: [{
        color: '#36a64f',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: 'This is a section block with an accessory image.' }, accessory: { type: 'image', image_url: CAT, alt_text: 'cute cat' } },
          { type: 'section', text: { type: 'mrkdwn', text: 'This is a section block with a button.' }, accessory: { type: 'button', text: { type: 'plain_text', text: 'Click Me' }, value: 'click_me_123', action_id: 'button-action' } },
          { type: 'section', fields: ['one', 'two', 'three', 'four', 'five'].map((text) => ({ type: 'plain_text', text, emoji: true })) },
        ],
      }],
    };
    expect(message(postJson(payload))).toEqual({
      topic: NO_TOPIC,
      content: `This is a section block with an accessory image.

[cute cat](${CAT})

This is a section block with a button.

| | |
|-|-|
| one | two |
| three | four |
| five |  |`,
    });
  });

  it('lists fields as title: value, either alone when the other is missing or null', () => {
    const payload = {
      attachments: [{
        fallback: 'Build ConsumerAddressModule_20150407.2 succeeded',
        pretext: 'Build bla bla succeeded',
        color: 'good',
        fields: [
          { title: 'Requested by', value: 'Some user', short: true },
          { title: 'Duration', value: '00:02:03', short: true },
          { title: 'Build pipeline', value: 'ConsumerAddressModule', short: false },
          { title: 'Title with null value', value: null },
          { title: 'Title without value' },
          { title: null, value: 'Value with null title' },
          { value: 'Value without title' },
          { title: null, value: null },
        ],
      }],
    };
    expect(message(postJson(payload))).toEqual({
      topic: NO_TOPIC,
      content: `Build bla bla succeeded

**Requested by**: Some user
**Duration**: 00:02:03
**Build pipeline**: ConsumerAddressModule
**Title with null value**
**Title without value**
Value with null title
Value without title`,
    });
  });

  const full = {
    title: 'Sample title.',
    title_link: 'https://www.google.com',
    pretext: 'Sample pretext.',
    text: 'Sample text.',
    image_url: CAT,
    footer: 'Sample footer.',
    ts: 1655945306,
  };
  const pieces = {
    title: '## [Sample title.](https://www.google.com)',
    pretext: 'Sample pretext.',
    text: 'Sample text.',
    image_url: `[](${CAT})`,
    footer: 'Sample footer.',
    ts: '<time:2022-06-23T00:48:26+00:00>',
  };

  it('renders title, image and timestamp', () => {
    const payload = { attachments: [{ title: 'Test', image_url: CAT, ts: 1655945306 }] };
    expect(message(postJson(payload))).toEqual({ topic: NO_TOPIC, content: `## Test\n\n[](${CAT})\n\n<time:2022-06-23T00:48:26+00:00>` });
  });

  for (const key of ['title', 'image_url', 'ts', 'text', 'pretext', 'footer'] as const) {
    it(`leaves out a null ${key}`, () => {
      const expected = Object.entries(pieces).filter(([k]) => k !== key).map(([, v]) => v).join('\n\n');
      expect(message(postJson({ attachments: [{ ...full, [key]: null }] }))).toEqual({ topic: NO_TOPIC, content: expected });
    });
  }

  it('writes the title alone when title_link is null or not an absolute URL', () => {
    const nullLink = message(postJson({ attachments: [{ ...full, title_link: null }] })).content;
    expect(nullLink.split('\n\n')[0]).toBe('## Sample title.');
    const relative = { attachments: [{ title: 'Sample title.', title_link: '/#/alerts?receiver=default', text: 'Sample text.' }] };
    expect(message(postJson(relative))).toEqual({ topic: NO_TOPIC, content: '## Sample title.\n\nSample text.' });
  });

  it('reads a ts sent as a string holding a float, and quotes an image_url that is not a URL', () => {
    const payload = { attachments: [{ ts: '1655945306.000200', image_url: 'images/build status.png' }] };
    expect(message(postJson(payload)).content).toBe('[](images/build%20status.png)\n\n<time:2022-06-23T00:48:26+00:00>');
  });
});

describe('nothing to say', () => {
  it('sends nothing for a null text, an empty payload or an attachment of nulls', () => {
    expect(postJson({ text: null })).toEqual({ messages: [] });
    expect(postJson({})).toEqual({ messages: [] });
    expect(postJson({ text: '', blocks: [], attachments: [] })).toEqual({ messages: [] });
    const allNull = { title: null, title_link: null, image_url: null, ts: null, text: null, pretext: null, footer: null };
    expect(postJson({ attachments: [allNull] })).toEqual({ messages: [] });
    expect(postJson({ blocks: [{ type: 'actions', elements: [] }, { type: 'rich_text', elements: [] }] })).toEqual({ messages: [] });
  });
});

describe('refusals', () => {
  it('wants a payload when the body is not JSON', () => {
    const error = refusal(() => slackIncoming.translate(new IncomingWebhookRequest({ body: '' })));
    expect(error.message).toBe("Missing 'payload' argument");
    expect(error.code).toBe('REQUEST_VARIABLE_MISSING');
  });

  it('refuses a payload that is not JSON, as a form field or as the body', () => {
    expect(refusal(() => postForm('text=hello')).message).toBe('Malformed JSON');
    expect(refusal(() => postJson('{"text": ')).message).toBe('Malformed JSON');
    expect(refusal(() => postJson('')).message).toBe('Malformed JSON');
  });

  it('names the part of a malformed payload', () => {
    const cases: [unknown, string][] = [
      [[1, 2], 'payload is not a dict'],
      [{ text: 42 }, 'payload["text"] is not a string'],
      [{ text: 'hi', icon_emoji: ['zap'] }, 'payload["icon_emoji"] is not a string'],
      [{ text: 'hi', channel: null }, 'payload["channel"] is not a string'],
      [{ blocks: 'section' }, 'payload["blocks"] is not a list'],
      [{ blocks: { type: 'divider' } }, 'payload["blocks"] is not a list'],
      [{ blocks: [7] }, 'payload["blocks"][0] is not a dict'],
      [{ blocks: [{}] }, 'payload["blocks"][0]["type"] is missing'],
      [{ blocks: [{ type: 'carousel' }] }, 'Invalid payload["blocks"][0]["type"]'],
      [{ blocks: [{ type: 'header', text: 'Hello' }] }, 'payload["blocks"][0]["text"] is not a dict'],
      [{ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'Hello' } }] }, 'Invalid payload["blocks"][0]["text"]["type"]'],
      [{ blocks: [{ type: 'section', text: { type: 'mrkdwn' } }] }, 'text key is missing from payload["blocks"][0]["text"]'],
      [{ blocks: [{ type: 'section', fields: { type: 'mrkdwn', text: 'x' } }] }, 'payload["blocks"][0]["fields"] is not a list'],
      [{ blocks: [{ type: 'section', fields: [{ type: 'mrkdwn', text: 3 }] }] }, 'payload["blocks"][0]["fields"][0]["text"] is not a string'],
      [{ blocks: [{ type: 'context', elements: [{ type: 'button' }] }] }, 'Invalid payload["blocks"][0]["elements"][0]["type"]'],
      [{ blocks: [{ type: 'image', image_url: 'not a url', alt_text: 'x' }] }, 'payload["blocks"][0]["image_url"] is not a URL'],
      [{ blocks: [{ type: 'image', image_url: CAT }] }, 'payload["blocks"][0]["alt_text"] is missing'],
      [{ attachments: ['hello'] }, 'payload["attachments"][0] is not a dict'],
      [{ attachments: [{ title: 5 }] }, 'payload["attachments"][0]["title"] is not a string'],
      [{ attachments: [{ fields: null }] }, 'payload["attachments"][0]["fields"] is not a list'],
      [{ attachments: [{ fields: [{ title: true }] }] }, 'payload["attachments"][0]["fields"][0]["title"] is not a string'],
      [{ attachments: [{ ts: 'yesterday' }] }, 'payload["attachments"][0]["ts"] is not an integer'],
      [{ attachments: [{ ts: 1.5 }] }, 'payload["attachments"][0]["ts"] is not a string'],
      [{ attachments: [{ ts: 1e15 }] }, 'payload["attachments"][0]["ts"] is out of range'],
      [{ attachments: [{ image_url: 5 }] }, 'payload["attachments"][0]["image_url"] is not a string'],
    ];
    for (const [payload, sentence] of cases) {
      expect(refusal(() => postJson(payload)).message, JSON.stringify(payload)).toBe(sentence);
    }
  });
});
