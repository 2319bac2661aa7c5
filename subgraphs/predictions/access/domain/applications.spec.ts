import { parseApplicationMail } from './application-mail';
import { validateApplication } from './applications';
import { rfc822 } from '../../../../test/support/platform/mail';

/** The rules of an application, without a database: validation and reading an e-mailed application. */

describe('validateApplication', () => {
  it('normalises the fields', () => {
    const a = validateApplication({ name: '  Acme \n  Analytics ', usage: ' Line one  \r\n\r\n\r\n\r\nLine two \n', email: ' Ops@ACME.Example ' });
    expect(a).toMatchObject({ name: 'Acme Analytics', usage: 'Line one\n\nLine two', email: 'Ops@acme.example' });
  });

  it('gives the same digest to the same usage in another case or spacing, and another to another usage', () => {
    const one = validateApplication({ name: 'Acme', usage: 'Predictions for our app', email: 'a@b.example' });
    expect(validateApplication({ name: 'Acme', usage: '  PREDICTIONS   for our\napp ', email: 'a@b.example' }).usageDigest).toBe(one.usageDigest);
    expect(validateApplication({ name: 'Acme', usage: 'Predictions for our bot', email: 'a@b.example' }).usageDigest).not.toBe(one.usageDigest);
  });

  it.each([
    [{ name: 'A', usage: 'long enough usage', email: 'a@b.example' }, 'name'],
    [{ name: 'x'.repeat(201), usage: 'long enough usage', email: 'a@b.example' }, 'name'],
    [{ name: 'Acme', usage: '👍'.repeat(9), email: 'a@b.example' }, 'usage'],
    [{ name: 'Acme', usage: 'u'.repeat(2001), email: 'a@b.example' }, 'usage'],
    [{ name: 'Acme', usage: 'long enough usage', email: 'a@b' }, 'email'],
    [{ name: 'Acme', usage: 'long enough usage', email: 'a b@c.example' }, 'email'],
    [{ name: 'Acme', usage: 'long enough usage', email: 'a@b.example, c@d.example' }, 'email'],
    [{ name: 'Acme', usage: 'long enough usage', email: 'a@b.example\r\nBcc: x@y.example' }, 'email'],
  ])('refuses %j (field %s)', (input, field) => {
    expect(() => validateApplication(input)).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT', extensions: expect.objectContaining({ details: { [field]: [expect.any(String)] } }) }),
    );
  });
});

describe('parseApplicationMail', () => {
  const parse = (opts: Parameters<typeof rfc822>[0]) => parseApplicationMail(rfc822(opts));

  it('keeps a multi-paragraph Usage: section up to the sign-off', async () => {
    const a = await parse({
      from: 'Ann <ann@x.example>',
      subject: 'API Access Request',
      body: 'Hi team,\n\nUsage:\nA bot for our club forum.\n\nAbout 30 requests a day.\n\nKind regards,\nAnn',
    });
    expect(a).toMatchObject({ name: 'Ann', email: 'ann@x.example', usage: 'A bot for our club forum.\n\nAbout 30 requests a day.' });
  });

  it('prefers Reply-To to From, and the free text when there is no Usage: line', async () => {
    const a = await parse({
      from: 'Web Form <forms@x.example>',
      replyTo: 'Bob Lee <bob@y.example>',
      subject: 'API Access Request',
      body: 'Hello,\nWe compare bookmaker odds with your model.\nThanks',
    });
    expect(a).toMatchObject({ name: 'Bob Lee', email: 'bob@y.example', usage: 'We compare bookmaker odds with your model.' });
  });

  it('reads an HTML-only message', async () => {
    const a = await parse({
      from: 'Cy <cy@z.example>',
      subject: 'API Access Request',
      body: '<p>Usage: a <b>fantasy league</b> helper</p>',
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
    expect(a.usage).toBe('a fantasy league helper');
  });

  it('reads HTML with a real parser: entities decoded, scripts, styles and link targets left out', async () => {
    const a = await parse({
      from: 'Zoë <zoe@z.example>',
      subject: 'API Access Request',
      body:
        '<style>p { color: red }</style><script>var usage = "stolen";</script>' +
        '<p>Usage: Caf&eacute; predictions &mdash; about 20 requests a day, see <a href="https://x.example/">our site</a></p>',
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
    expect(a.usage).toBe('Café predictions — about 20 requests a day, see our site');
  });

  it('reads a flood of unclosed <script tags as a message without text (the parser is linear: bench/mail-html.ts)', async () => {
    await expect(
      parse({ from: 'Mallory <m@z.example>', subject: 'API Access Request', body: '<script'.repeat(15_000), headers: { 'Content-Type': 'text/html' } }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT', extensions: { details: { usage: [expect.any(String)] } } });
  });

  it('asks for a name when neither the body nor the sender gives one', async () => {
    await expect(parse({ from: 'anon@x.example', subject: 'API Access Request', body: 'Usage: predictions for a podcast' })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      extensions: { details: { name: [expect.stringContaining('Name:')] } },
    });
  });
});
