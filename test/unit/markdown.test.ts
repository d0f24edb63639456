// Expected HTML is Zulip's (zerver/tests/fixtures/markdown_test_cases.json and the markup in
// zerver/lib/markdown/__init__.py), since Zulip clients parse what the server stores.

import { describe, expect, it } from 'vitest';
import {
  encodeHashComponent,
  extractMentionCandidates,
  renderMarkdown,
  sanitizeUrl,
  type MentionTargets,
  type MentionUser,
} from '../../resolvers/messages/markdown.ts';
import { isValidEmojiName, unicodeEmojiByName, unicodeEmojiNameForCode } from '../../resolvers/emoji/unicode.ts';

const hamlet: MentionUser = { id: 12, fullName: 'King Hamlet' };
const twinA: MentionUser = { id: 20, fullName: 'Alex Smith' };
const twinB: MentionUser = { id: 21, fullName: 'Alex Smith' };
const ghost: MentionUser = { id: 30, fullName: 'Old Ghost', isActive: false };

function targets(overrides: Partial<MentionTargets> = {}): MentionTargets {
  const users = [hamlet, twinA, twinB, ghost];
  const byName = new Map<string, MentionUser[]>();
  for (const u of users) byName.set(u.fullName.toLowerCase(), [...(byName.get(u.fullName.toLowerCase()) ?? []), u]);
  return {
    usersByName: byName,
    usersById: new Map(users.map((u) => [u.id, u])),
    groupsByName: new Map([['support team', { id: 5, name: 'Support Team' }]]),
    channelsByName: new Map([
      ['general', { id: 3, name: 'general' }],
      ['design team', { id: 4, name: 'design team' }],
    ]),
    customEmoji: new Map([['parrot', { id: 7, name: 'parrot', url: '/user_avatars/2/emoji/images/7.gif' }]]),
    linkifiers: [],
    ...overrides,
  };
}

const render = (content: string, t: MentionTargets = targets()) =>
  renderMarkdown(content, t, { realmUrl: 'http://zulip.testserver' });
const html = (content: string, t?: MentionTargets) => render(content, t).html;

describe('paragraphs and inline formatting', () => {
  it('wraps text in <p> and turns newlines into <br>', () => {
    expect(html('test_input')).toBe('<p>test_input</p>');
    expect(html('test\nbar')).toBe('<p>test<br>\nbar</p>');
    expect(html('one\n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
    expect(html('')).toBe('');
  });

  it('renders bold, italic, strike-through as Zulip does', () => {
    expect(html('**foo**')).toBe('<p><strong>foo</strong></p>');
    expect(html('*foo*')).toBe('<p><em>foo</em></p>');
    expect(html('***foo***')).toBe('<p><strong><em>foo</em></strong></p>');
    expect(html('I like ~~software~~ hardware')).toBe('<p>I like <del>software</del> hardware</p>');
    expect(html('I ~~ like software ~~ love hardware')).toBe('<p>I <del> like software </del> love hardware</p>');
    expect(html('const char *x = (char *)y')).toBe('<p>const char *x = (char *)y</p>');
  });

  it('has no underscore emphasis', () => {
    expect(html('_foo_')).toBe('<p>_foo_</p>');
    expect(html('__foo__')).toBe('<p>__foo__</p>');
    expect(html('snake_case_name')).toBe('<p>snake_case_name</p>');
  });

  it('renders # headings only with a space, and no setext headings', () => {
    expect(html('# Hello world')).toBe('<h1>Hello world</h1>');
    expect(html('###### Hello world')).toBe('<h6>Hello world</h6>');
    expect(html('#Hello world')).toBe('<p>#Hello world</p>');
    expect(html('####### Hello world')).toBe('<p>####### Hello world</p>');
    expect(html('Title\n===')).toBe('<p>Title<br>\n===</p>');
  });

  it('ignores reference-style links', () => {
    expect(html('Hello [world]\n\n[world]: https://google.com')).toBe(
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
    );
  });

  it('renders lists and tables', () => {
    expect(html('Some text with a list:\n\n* One item\n* Two items')).toBe(
      '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>',
    );
    expect(html('Some text with a hanging list:\n* One item\n* Two items')).toBe(
      '<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>',
    );
    expect(html('3. A\n3. B')).toBe('<ol start="3">\n<li>A</li>\n<li>B</li>\n</ol>');
    expect(html('First | Second\n--- | :-:\nA | B')).toBe(
      '<table>\n<thead>\n<tr>\n<th>First</th>\n<th style="text-align: center;">Second</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td>A</td>\n<td style="text-align: center;">B</td>\n</tr>\n</tbody>\n</table>',
    );
  });
});

describe('HTML safety', () => {
  it('escapes raw HTML instead of passing it through', () => {
    expect(html('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html('<<script>script>evil()<</script>/script>')).toBe(
      '<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>',
    );
    expect(html('**<h1>Hello world</h1>**')).toBe('<p><strong>&lt;h1&gt;Hello world&lt;/h1&gt;</strong></p>');
    expect(html('<h1>stay normal</h1> thanks')).toBe('<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>');
  });

  it('keeps quotes and ampersands as Zulip prints them', () => {
    expect(html('& &amp; &amp;amp;')).toBe('<p>&amp; &amp; &amp;amp;</p>');
    expect(html('<script src="http://xx.com/xss.js"<b>')).toBe('<p>&lt;script src="http://xx.com/xss.js"&lt;b&gt;</p>');
  });

  it('refuses unsafe link schemes and escapes hrefs', () => {
    expect(html('[foo](javascript:alert(1))')).toBe('<p>[foo](javascript:alert(1))</p>');
    expect(html('[foo](javascript://foo.com)')).toBe('<p>[foo](javascript://foo.com)</p>');
    expect(html('[a](http://x.com/"onmouseover="alert(1))')).toBe(
      '<p><a href="http://x.com/&quot;onmouseover=&quot;alert(1)">a</a></p>',
    );
    expect(html('[<img src=x onerror=alert(1)>](http://x.com)')).toBe(
      '<p><a href="http://x.com">&lt;img src=x onerror=alert(1)&gt;</a></p>',
    );
  });

  it('escapes names that come from the database', () => {
    const evil: MentionUser = { id: 66, fullName: '<b>Eve</b>' };
    const t = targets({ usersByName: new Map([['<b>eve</b>', [evil]]]), usersById: new Map([[66, evil]]) });
    expect(html('@**<b>Eve</b>**', t)).toBe('<p><span class="user-mention" data-user-id="66">@&lt;b&gt;Eve&lt;/b&gt;</span></p>');
  });

  it('sanitizes URLs like Zulip', () => {
    expect(sanitizeUrl('example.com')).toBe('http://example.com');
    expect(sanitizeUrl('/user_uploads/1/a.png')).toBe('/user_uploads/1/a.png');
    expect(sanitizeUrl('#narrow/channel/3-general')).toBe('#narrow/channel/3-general');
    expect(sanitizeUrl('a@b.com')).toBe('mailto:a@b.com');
    expect(sanitizeUrl('tel:+14155551234')).toBe('tel:+14155551234');
    expect(sanitizeUrl('javascript:alert(1)')).toBeNull();
    expect(sanitizeUrl('data:text/html,x')).toBeNull();
  });
});

describe('user mentions', () => {
  it('renders @**Full Name** and records the user', () => {
    const r = render('hi @**King Hamlet**');
    expect(r.html).toBe('<p>hi <span class="user-mention" data-user-id="12">@King Hamlet</span></p>');
    expect(r.mentionedUserIds).toEqual([12]);
  });

  it('matches names case-insensitively and prints the stored name', () => {
    expect(html('@**king hamlet**')).toBe('<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>');
  });

  it('renders @**Name|id**, and rejects an id whose name does not match', () => {
    const r = render('@**Alex Smith|21**');
    expect(r.html).toBe('<p><span class="user-mention" data-user-id="21">@Alex Smith</span></p>');
    expect(r.mentionedUserIds).toEqual([21]);
    expect(html('@**|12**')).toBe('<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>');
    expect(render('@**Someone Else|12**').mentionedUserIds).toEqual([]);
  });

  it('leaves an ambiguous name without id unresolved', () => {
    const r = render('@**Alex Smith**');
    expect(r.html).toBe('<p>@<strong>Alex Smith</strong></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('leaves unknown names as Zulip does (the ** become bold)', () => {
    const r = render('@**Nobody Here**');
    expect(r.html).toBe('<p>@<strong>Nobody Here</strong></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('renders silent mentions without @ and does not count them', () => {
    const r = render('@_**King Hamlet**');
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="12">King Hamlet</span></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('silences mentions of deactivated users', () => {
    const r = render('@**Old Ghost**');
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="30">Old Ghost</span></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('silences mentions inside quotes', () => {
    const r = render('> @**King Hamlet** said\n\n```quote\n@**Alex Smith|20**\n```');
    expect(r.html).toBe(
      '<blockquote>\n<p><span class="user-mention silent" data-user-id="12">King Hamlet</span> said</p>\n</blockquote>\n' +
        '<blockquote>\n<p><span class="user-mention silent" data-user-id="20">Alex Smith</span></p>\n</blockquote>',
    );
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('needs whitespace or an opening delimiter before the @', () => {
    expect(render('email@**King Hamlet**').mentionedUserIds).toEqual([]);
    expect(render('(@**King Hamlet**)').mentionedUserIds).toEqual([12]);
  });

  it('is not processed in code', () => {
    const r = render('`@**King Hamlet**`\n\n```\n@**King Hamlet**\n```\n\n    @**King Hamlet**');
    expect(r.html).toBe(
      '<p><code>@**King Hamlet**</code></p>\n' +
        '<div class="codehilite"><pre><span></span><code>@**King Hamlet**\n</code></pre></div>\n' +
        '<div class="codehilite"><pre><span></span><code>@**King Hamlet**\n</code></pre></div>',
    );
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('lists each mentioned user once', () => {
    expect(render('@**King Hamlet** @**King Hamlet|12** @**Alex Smith|20**').mentionedUserIds).toEqual([12, 20]);
  });
});

describe('wildcard mentions', () => {
  it.each(['all', 'everyone', 'channel', 'stream'])('@**%s** is a channel wildcard', (word) => {
    const r = render(`@**${word}**`);
    expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${word}</span></p>`);
    expect(r.wildcardMention).toBe('stream');
  });

  it('@**topic** is a topic wildcard', () => {
    const r = render('@**topic**');
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(r.wildcardMention).toBe('topic');
  });

  it('prefers the channel wildcard when both appear', () => {
    expect(render('@**topic** @**all**').wildcardMention).toBe('stream');
  });

  it('does not notify when silent or quoted', () => {
    const r = render('@_**all**');
    expect(r.html).toBe('<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>');
    expect(r.wildcardMention).toBeNull();
    expect(render('> @**everyone**').wildcardMention).toBeNull();
  });
});

describe('user group mentions', () => {
  it('renders @*group* and records the group', () => {
    const r = render('@*support team* please');
    expect(r.html).toBe('<p><span class="user-group-mention" data-user-group-id="5">@Support Team</span> please</p>');
    expect(r.mentionedGroupIds).toEqual([5]);
  });

  it('renders silent group mentions without counting them', () => {
    const r = render('@_*Support Team*');
    expect(r.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="5">Support Team</span></p>');
    expect(r.mentionedGroupIds).toEqual([]);
  });

  it('leaves unknown groups alone', () => {
    const r = render('@*nobody*');
    expect(r.html).toBe('<p>@<em>nobody</em></p>');
    expect(r.mentionedGroupIds).toEqual([]);
  });
});

describe('channel and topic links', () => {
  it('links #**channel**', () => {
    const r = render('#**general**');
    expect(r.html).toBe('<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-general">#general</a></p>');
    expect(r.hasLink).toBe(true);
  });

  it('encodes channel names with dashes for spaces', () => {
    expect(html('#**Design Team**')).toBe(
      '<p><a class="stream" data-stream-id="4" href="/#narrow/channel/4-design-team">#design team</a></p>',
    );
  });

  it('links #**channel>topic** with Zulip hash encoding', () => {
    expect(html('#**general>my topic**')).toBe(
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-general/topic/my.20topic">#general &gt; my topic</a></p>',
    );
    expect(encodeHashComponent('a.b (c)/d%')).toBe('a.2Eb.20.28c.29.2Fd.25');
  });

  it('links #**channel>topic@id** to the message', () => {
    expect(html('#**general>lunch@42**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/3-general/topic/lunch/near/42">#general &gt; lunch @ 💬</a></p>',
    );
  });

  it('leaves unknown channels alone', () => {
    const r = render('#**secret**');
    expect(r.html).toBe('<p>#<strong>secret</strong></p>');
    expect(r.hasLink).toBe(false);
  });
});

describe('emoji', () => {
  it('renders unicode emoji names as spans', () => {
    expect(html(':smile:')).toBe(
      '<p><span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>',
    );
    expect(html(':+1: :heart:')).toBe(
      '<p><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span> ' +
        '<span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span></p>',
    );
    expect(html('**:tada:**')).toBe(
      '<p><strong><span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></strong></p>',
    );
  });

  it('puts spaces for underscores in the title', () => {
    expect(html(':thumbs_up:')).toBe(
      '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>',
    );
  });

  it('renders custom and :zulip: emoji as images', () => {
    expect(html(':parrot:')).toBe(
      '<p><img alt=":parrot:" class="emoji" src="/user_avatars/2/emoji/images/7.gif" title="parrot"></p>',
    );
    expect(html(':zulip:')).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
  });

  it('leaves unknown names and skin tones as text', () => {
    expect(html(':not_an_emoji:')).toBe('<p>:not_an_emoji:</p>');
    expect(html(':skin-tone-2:')).toBe('<p>:skin-tone-2:</p>');
    expect(html(':) foo:)bar x::y::z :wasted waste:')).toBe('<p>:) foo:)bar x::y::z :wasted waste:</p>');
  });

  it('handles emoji without spaces between them', () => {
    expect(html(':octopus:hello:tada::heart:')).toBe(
      '<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span>hello' +
        '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span>' +
        '<span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span></p>',
    );
  });

  it('wraps typed unicode emoji, dropping FE0F from the code', () => {
    expect(html('\u{1F4A9}')).toBe(
      '<p><span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span></p>',
    );
    expect(html('Extra\u{1F47D}Terrestrial')).toBe(
      '<p>Extra<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span>Terrestrial</p>',
    );
    expect(html('🤷‍♀️')).toBe(
      '<p><span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span></p>',
    );
    expect(html('#️⃣')).toBe('<p><span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>');
  });

  it('leaves text-presentation characters and unknown sequences alone', () => {
    expect(html('1 # ↔ ©')).toBe('<p>1 # ↔ ©</p>');
    expect(html('man in manual wheelchair: dark skin tone 👨🏿‍🦽')).toBe('<p>man in manual wheelchair: dark skin tone 👨🏿‍🦽</p>');
  });

  it('is not processed in code', () => {
    expect(html('`:smile:` 💩`💩`')).toBe(
      '<p><code>:smile:</code> <span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span><code>💩</code></p>',
    );
  });
});

describe('emoji data', () => {
  it('maps names to Zulip emoji codes', () => {
    expect(unicodeEmojiByName('+1')).toEqual({ name: '+1', code: '1f44d' });
    expect(unicodeEmojiByName('thumbs_up')).toEqual({ name: 'thumbs_up', code: '1f44d' });
    expect(unicodeEmojiByName('heart')?.code).toBe('2764');
    expect(unicodeEmojiByName('octopus')?.code).toBe('1f419');
    expect(unicodeEmojiByName('woman_shrugging')?.code).toBe('1f937-200d-2640');
    expect(unicodeEmojiByName('skin-tone-2')).toBeUndefined();
    expect(unicodeEmojiByName('nope')).toBeUndefined();
  });

  it('maps codes to canonical names', () => {
    expect(unicodeEmojiNameForCode('1f44d')).toBe('+1');
    expect(unicodeEmojiNameForCode('1f4a9')).toBe('poop');
    expect(unicodeEmojiNameForCode('0023-20e3')).toBe('hash');
    expect(unicodeEmojiNameForCode('2764-fe0f')).toBeUndefined();
  });

  it('validates custom emoji names as Zulip does', () => {
    expect(isValidEmojiName('party_parrot')).toBe(true);
    expect(isValidEmojiName('x-2')).toBe(true);
    expect(isValidEmojiName('trailing_')).toBe(false);
    expect(isValidEmojiName('Caps')).toBe(false);
    expect(isValidEmojiName('+1')).toBe(false);
    expect(isValidEmojiName('')).toBe(false);
  });
});

describe('code', () => {
  it('renders inline code, keeping its spaces', () => {
    expect(html('`x`')).toBe('<p><code>x</code></p>');
    expect(html('` outer ` ```    space    ```')).toBe('<p><code> outer </code> <code>    space    </code></p>');
    expect(html('`<&nbsp;>`')).toBe('<p><code>&lt;&amp;nbsp;&gt;</code></p>');
  });

  it('renders fences with a language as codehilite with the lexer name', () => {
    expect(html('```py\ndef speak(self):\n    x = 1\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
    );
    expect(html('Hamlet said:\n~~~~.python \nx = 1\n~~~~')).toBe(
      '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = 1\n</code></pre></div>',
    );
    expect(html('``` inventedlanguage\nx\n```')).toBe(
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>x\n</code></pre></div>',
    );
  });

  it('renders fences without a language, escaping the code like Pygments', () => {
    expect(html('```\necho "it\'s" <b> & done\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code>echo &quot;it&#39;s&quot; &lt;b&gt; &amp; done\n</code></pre></div>',
    );
  });

  it('trims trailing whitespace and surrounding blank lines, and runs unclosed fences to the end', () => {
    expect(html('~~~\n\ndef f():\n    y = 2\t\t\n\n~~~\nAnd all was good.')).toBe(
      '<div class="codehilite"><pre><span></span><code>def f():\n    y = 2\n</code></pre></div>\n<p>And all was good.</p>',
    );
    expect(html('~~~~\ndef foobar(self):\n    return 1')).toBe(
      '<div class="codehilite"><pre><span></span><code>def foobar(self):\n    return 1\n</code></pre></div>',
    );
  });

  it('renders four-space indented code', () => {
    expect(html('    def foo(): pass')).toBe('<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>');
  });

  it('treats ``` text ``` on one line as inline code', () => {
    expect(html('``` one ```')).toBe('<p><code> one </code></p>');
  });

  it('shows ```math as a code block', () => {
    expect(html('```math\na^2 = b^2\n```')).toBe(
      '<div class="codehilite" data-code-language="math"><pre><span></span><code>a^2 = b^2\n</code></pre></div>',
    );
  });
});

describe('quotes', () => {
  it('renders > quotes', () => {
    expect(html('> x')).toBe('<blockquote>\n<p>x</p>\n</blockquote>');
    expect(html('> Hello World!\n\n> Hello Universe!')).toBe(
      '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>',
    );
  });

  it('renders ```quote blocks as Markdown inside a blockquote', () => {
    expect(html('Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~')).toBe(
      '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
    );
    expect(html('```quote\n# line 1\n#line 2\n```')).toBe('<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>');
  });

  it('nests fences inside quote fences like Zulip', () => {
    const input =
      'I heard about this second hand...\n~~~ quote\n\nHe said:\n~~~ quote\nThe customer is complaining.\n\n' +
      "They looked at this code:\n``` \ndef hello(): print 'hello\n```\nThey would prefer:\n~~~\ndef hello()\n" +
      "puts 'hello'\nend\n~~~\n\nPlease advise.\n~~~\n\nShe said:\n~~~ quote\nJust send them this:\n```\n" +
      'echo "hello\n"\n```\n~~~';
    expect(html(input)).toBe(
      '<p>I heard about this second hand...</p>\n<blockquote>\n<p>He said:</p>\n<blockquote>\n' +
        '<p>The customer is complaining.</p>\n<p>They looked at this code:</p>\n' +
        '<div class="codehilite"><pre><span></span><code>def hello(): print &#39;hello\n</code></pre></div>\n' +
        "<p>They would prefer:</p>\n</blockquote>\n<p>def hello()<br>\nputs 'hello'<br>\nend</p>\n</blockquote>\n" +
        '<p>Please advise.</p>\n<div class="codehilite"><pre><span></span><code>She said:\n~~~ quote\n' +
        'Just send them this:\n```\necho &quot;hello\n&quot;\n```\n</code></pre></div>',
    );
  });
});

describe('spoilers', () => {
  it('renders ```spoiler with a header', () => {
    expect(html('```spoiler header\ncontent\n```\noutside spoiler\n')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
    );
  });

  it('renders an empty header', () => {
    expect(html('```spoiler\ncontent\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
    );
  });

  it('renders Markdown in the header and escapes HTML', () => {
    expect(html('```spoiler <script>alert(1)</script> :tada:\n<script>alert(1)</script>\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt; ' +
        '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
    );
  });

  it('works inside quote fences', () => {
    expect(html('~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote')).toBe(
      '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n' +
        '</blockquote>\n<p>outside quote</p>',
    );
  });
});

describe('links', () => {
  it('renders [text](url) without extra attributes', () => {
    const r = render('[hello](https://github.com)');
    expect(r.html).toBe('<p><a href="https://github.com">hello</a></p>');
    expect(r.hasLink).toBe(true);
  });

  it('uses the URL as text for empty link text', () => {
    expect(html('[](https://github.com)')).toBe('<p><a href="https://github.com">https://github.com</a></p>');
    expect(html('[  ](https://github.com)')).toBe('<p><a href="https://github.com">https://github.com</a></p>');
  });

  it('autolinks bare URLs, domains and email addresses', () => {
    expect(html('https://github.com')).toBe('<p><a href="https://github.com">https://github.com</a></p>');
    expect(html('with short example.com url')).toBe('<p>with short <a href="http://example.com">example.com</a> url</p>');
    expect(html('a@b.com')).toBe('<p><a href="mailto:a@b.com">a@b.com</a></p>');
    expect(html('end of sentence https://t.co.')).toBe('<p>end of sentence <a href="https://t.co">https://t.co</a>.</p>');
    expect(html('(http://en.wikipedia.org/wiki/Each-way_(bet))')).toBe(
      '<p>(<a href="http://en.wikipedia.org/wiki/Each-way_(bet)">http://en.wikipedia.org/wiki/Each-way_(bet)</a>)</p>',
    );
  });

  it('does not autolink file names', () => {
    expect(html('readme.md')).toBe('<p>readme.md</p>');
    expect(html('python class views.py is')).toBe('<p>python class views.py is</p>');
  });

  it('keeps ![x](url) and <url> as Zulip does', () => {
    expect(html('<https://x.com>')).toBe('<p>&lt;<a href="https://x.com">https://x.com</a>&gt;</p>');
    expect(html('![x](https://x.com/page)')).toBe('<p>!<a href="https://x.com/page">x</a></p>');
  });

  it('makes links into the realm relative', () => {
    expect(html('[foo](http://zulip.testserver/#narrow/stream/1-Denmark)')).toBe('<p><a href="#narrow/stream/1-Denmark">foo</a></p>');
    expect(html('[foo](http://zulip.testserver/https://example.com)')).toBe(
      '<p><a href="http://zulip.testserver/https://example.com">foo</a></p>',
    );
  });

  it('links inside strike-through and code do not interfere', () => {
    expect(html('~~test http://xx.xx link~~')).toBe('<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>');
    expect(render('`http://example.com`').hasLink).toBe(false);
  });

  it('supports tel: and sms: links', () => {
    expect(html('[call me](tel:+14155551234) [or maybe not](sms:+14155551234)')).toBe(
      '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or maybe not</a></p>',
    );
  });

  it('reports no link for plain text', () => {
    expect(render('no links here').hasLink).toBe(false);
  });
});

describe('image previews', () => {
  const logo = 'https://www.google.com/images/srpr/logo4w.png';
  const preview = (title?: string) =>
    `<div class="message_inline_image"><a href="${logo}"${title ? ` title="${title}"` : ''}><img src="${logo}"></a></div>`;

  it('adds a preview after the paragraph and sets hasImage', () => {
    const r = render(`Google logo today: ${logo}\nKinda boring`);
    expect(r.html).toBe(`<p>Google logo today: <a href="${logo}">${logo}</a><br>\nKinda boring</p>\n${preview()}`);
    expect(r.hasImage).toBe(true);
    expect(r.hasLink).toBe(true);
  });

  it('replaces a paragraph that is only the image URL', () => {
    expect(html(logo)).toBe(preview());
  });

  it('titles the preview of a named link', () => {
    expect(html(`[Google link](${logo})`)).toBe(`<p><a href="${logo}">Google link</a></p>\n${preview('Google link')}`);
  });

  it('puts previews inside list items', () => {
    expect(html(`* Google?\n* Google. ${logo}\n* Google!`)).toBe(
      `<ul>\n<li>Google?</li>\n<li>Google. <a href="${logo}">${logo}</a>${preview()}</li>\n<li>Google!</li>\n</ul>`,
    );
  });

  it('previews each URL once', () => {
    expect(html(`${logo} and ${logo}`)).toBe(`<p><a href="${logo}">${logo}</a> and <a href="${logo}">${logo}</a></p>\n${preview()}`);
  });

  it('does not preview inside quotes', () => {
    const r = render(`> ${logo}`);
    expect(r.html).toBe(`<blockquote>\n<p><a href="${logo}">${logo}</a></p>\n</blockquote>`);
    expect(r.hasImage).toBe(false);
    expect(r.hasLink).toBe(true);
  });

  it('does not count non-image links as images', () => {
    expect(render('https://github.com/zulip/zulip').hasImage).toBe(false);
  });
});

describe('attachments', () => {
  it('detects links to /user_uploads/', () => {
    const r = render('[report.pdf](/user_uploads/2/ab/report.pdf)');
    expect(r.html).toBe('<p><a href="/user_uploads/2/ab/report.pdf">report.pdf</a></p>');
    expect(r.hasAttachment).toBe(true);
    expect(r.potentialAttachmentPathIds).toEqual(['2/ab/report.pdf']);
    expect(r.hasImage).toBe(false);
  });

  it('counts absolute upload links on this realm only', () => {
    const r = render('http://zulip.testserver/user_uploads/2/cd/notes.txt https://other.example/user_uploads/9/x.txt');
    expect(r.potentialAttachmentPathIds).toEqual(['2/cd/notes.txt']);
  });

  it('previews uploaded images, with their thumbnail or a placeholder until it exists', () => {
    const previews = new Map([['2/ef/cat.png', { width: 1000, height: 800, contentType: 'image/png', animated: false, thumbnail: null as string | null }]]);
    const r = render('[cat.png](/user_uploads/2/ef/cat.png)', targets({ uploadPreviews: previews }));
    expect(r.hasAttachment).toBe(true);
    expect(r.hasImage).toBe(true);
    expect(r.html).toBe('<p><a href="/user_uploads/2/ef/cat.png">cat.png</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ef/cat.png" title="cat.png">'
      + '<img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="1000x800" src="/static/images/loading/loader-black.svg"></a></div>');
    previews.get('2/ef/cat.png')!.thumbnail = '840x560.webp';
    expect(render('[cat.png](/user_uploads/2/ef/cat.png)', targets({ uploadPreviews: previews })).html).toContain(
      '<img data-original-content-type="image/png" data-original-dimensions="1000x800" src="/user_uploads/thumbnail/2/ef/cat.png/840x560.webp">');
  });

  it('does not preview uploads that are not known images', () => {
    const r = render('[cat.png](/user_uploads/2/ef/cat.png)');
    expect(r.hasAttachment).toBe(true);
    expect(r.hasImage).toBe(false);
  });

  it('ignores upload paths that are not links', () => {
    expect(render('`/user_uploads/2/ab/report.pdf`').hasAttachment).toBe(false);
  });
});

describe('/me messages', () => {
  it('flags a single-paragraph /me message', () => {
    const r = render('/me is happy');
    expect(r.html).toBe('<p>/me is happy</p>');
    expect(r.isMeMessage).toBe(true);
  });

  it('does not flag other messages', () => {
    expect(render('/me\nis happy').isMeMessage).toBe(false);
    expect(render('I said /me is happy').isMeMessage).toBe(false);
    expect(render('/mexico').isMeMessage).toBe(false);
  });
});

describe('linkifiers', () => {
  const withLinkifier = targets({
    linkifiers: [{ pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/zulip/zulip/issues/{id}' }],
  });

  it('links matches of realm patterns', () => {
    const r = render('see #123.', withLinkifier);
    expect(r.html).toBe('<p>see <a href="https://github.com/zulip/zulip/issues/123">#123</a>.</p>');
    expect(r.hasLink).toBe(true);
  });

  it('needs a boundary on both sides, and skips code and existing links', () => {
    expect(html('issue#5 #5a `#7` [x #8](https://a.com)', withLinkifier)).toBe(
      '<p>issue#5 #5a <code>#7</code> <a href="https://a.com">x #8</a></p>',
    );
  });
});

describe('timestamps', () => {
  it('renders <time:...> as a <time> element', () => {
    expect(html('<time:2017-06-05T22:30:00Z>')).toBe('<p><time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30:00Z</time></p>');
    expect(html('<time:2017-06-06T00:30:00+02:00>')).toBe(
      '<p><time datetime="2017-06-05T22:30:00Z">2017-06-06T00:30:00+02:00</time></p>',
    );
    expect(html("Let's meet at <time:1496701800>.")).toBe(
      '<p>Let\'s meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>',
    );
  });

  it('renders invalid input as an escaped error', () => {
    expect(html('<time:<alert(1)>>')).toBe('<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>');
  });
});

describe('extractMentionCandidates', () => {
  it('collects what a message may reference', () => {
    const c = extractMentionCandidates(
      'hi @**King Hamlet** @_**Alex Smith|21** @**all** @*support team* #**general>lunch** :tada: :parrot: @**|12**',
    );
    expect(c.names).toEqual(['King Hamlet']);
    expect(c.ids).toEqual([21, 12]);
    expect(c.groupNames).toEqual(['support team']);
    expect(c.channelNames).toEqual(['general>lunch', 'general']);
    expect(c.emojiNames).toEqual(['tada', 'parrot']);
  });

  it('returns empty lists for plain text', () => {
    expect(extractMentionCandidates('nothing to see')).toEqual({
      names: [],
      ids: [],
      groupNames: [],
      channelNames: [],
      emojiNames: [],
    });
  });
});
