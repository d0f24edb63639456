// A real SMTP server for tests (the smtp-server package), keeping every message it receives,
// parsed (mailparser): the server under test sends to it through PARLEY_SMTP_URL.
import { afterAll, beforeAll } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { accountRegisteredSubject } from '../../resolvers/users/account-registered.ts';

export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  /** The messages sent to `address` so far. */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => {
      const to = Array.isArray(m.to) ? m.to : m.to ? [m.to] : [];
      return to.some((a) => a.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()));
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The file's SMTP sink, started in beforeAll and closed in afterAll. Call it before useTestServer:
 * afterAll hooks unwind in reverse, so the server closes first. Give the server `mailConfig(sink)`.
 */
export function useSmtpSink(): SmtpSink {
  let sink: SmtpSink | null = null;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink?.close();
  });
  const started = (): SmtpSink => {
    if (!sink) throw new Error('the SMTP sink starts in beforeAll');
    return sink;
  };
  return {
    get url() { return started().url; },
    get messages() { return started().messages; },
    to: (address) => started().to(address),
    close: () => started().close(),
  };
}

/** The server settings that send its e-mail to `sink`. */
export function mailConfig(sink: SmtpSink): { smtpUrl: string; emailFrom: string } {
  return { smtpUrl: sink.url, emailFrom: 'Parley <noreply@parley.test>' };
}

/**
 * `mails` without the account-details e-mail every new account gets (resolvers/users/account-registered.ts),
 * for tests about other e-mail to users they make.
 */
export function withoutAccountDetails(mails: ParsedMail[]): ParsedMail[] {
  const subject = accountRegisteredSubject('').trim();
  return mails.filter((mail) => !mail.subject?.endsWith(subject));
}
