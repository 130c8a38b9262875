import { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One e-mail a {@link smtpSink} accepted. */
export interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** A loopback SMTP server (smtp-server) keeping what it received; `delayMs` before each message is accepted. */
export async function smtpSink(
  reply: () => Error | null = () => null,
): Promise<{ url: string; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const err = reply();
        if (err) return done(err);
        const to = session.envelope.rcptTo.map((r) => r.address);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push({ from, to, data: Buffer.concat(chunks).toString() });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}
