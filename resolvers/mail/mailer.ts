// Outgoing e-mail (invitations, password resets, address changes) through SMTP when PARLEY_SMTP_URL is set, with
// nodemailer. Without it the server sends nothing: the message, links included, goes to the log,
// and invitation links stay readable by those who manage them (GraphQL `invitations { linkUrl }`).
import nodemailer from 'nodemailer';
import type { Config } from '../../server/config.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The sender's display name, with the address of PARLEY_EMAIL_FROM (default: its own name). */
  fromName?: string;
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Whether mail actually leaves the server. */
  readonly delivers: boolean;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function openMailer(config: Pick<Config, 'smtpUrl' | 'emailFrom'>, log: (line: string) => void): Mailer {
  if (!config.smtpUrl) {
    return {
      delivers: false,
      send: async (mail) => log(`e-mail not sent (no PARLEY_SMTP_URL) to ${mail.to}: ${mail.subject}\n${mail.text}`),
      close: () => {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    delivers: true,
    send: async (mail) => {
      const from = mail.fromName ? { name: mail.fromName, address: fromAddress(config.emailFrom) } : config.emailFrom;
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, headers: mail.headers });
    },
    close: () => transport.close(),
  };
}

/** The display name of a From header such as `Parley <noreply@example.com>` ("Parley"). */
export function fromDisplayName(from: string): string {
  return from.replace(/\s*<[^>]*>\s*$/, '').replace(/^"|"$/g, '').trim();
}

/** The address of a From header such as `Parley <noreply@example.com>`. */
function fromAddress(from: string): string {
  return /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}
