// Outgoing e-mail (invitations, password resets, address changes) through SMTP when PARLEY_SMTP_URL is set, with
// nodemailer. Without it the server sends nothing: the message, links included, goes to the log,
// and invitation links stay readable by those who manage them (GraphQL `invitations { linkUrl }`).
import nodemailer from 'nodemailer';
import type { Config } from '../../server/config.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
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
      await transport.sendMail({ from: config.emailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}
