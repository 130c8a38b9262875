import { createTransport } from 'nodemailer';

/** What one e-mail try came back with: sent, or an SMTP failure (`code`: the server's reply code, null: none). */
export type EmailResult = { kind: 'sent' } | { kind: 'smtp'; code: number | null; message: string };

/** One e-mail of an `email` channel. */
export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  /** Message-ID's left part: the delivery id, so a retry carries the same id (receivers may deduplicate). */
  deliveryId: string;
}

/** The SMTP server (SMTP_URL, SMTP_FROM) and the timeouts of each phase (ms). */
export interface SmtpOptions {
  url: string;
  from: string;
  timeoutMs: number;
}

/** SMTP_URL with its password masked, for logs and errors (docs/notifications.md "Channels"). */
export function maskSmtpUrl(url: string): string {
  return url.replace(/^(smtps?:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

/** Removes any SMTP_URL password from an error message (nodemailer's messages may quote the connection). */
function scrub(message: string, url: string): string {
  const pass = /^smtps?:\/\/[^:@/]*:([^@/]*)@/i.exec(url)?.[1];
  if (!pass) return message;
  let out = message;
  for (const p of new Set([pass, decodeURIComponent(pass)])) if (p !== '') out = out.split(p).join('***');
  return out;
}

/**
 * Sends `m` through the SMTP server of `o` (nodemailer; one connection per try, never pooled): connection,
 * greeting and socket inactivity each bounded by `timeoutMs`, the whole try by 3 × `timeoutMs`; `signal` closes
 * the connection. SMTP over TLS for smtps://, STARTTLS when the server offers it. @returns sent, or the failure
 * with the server's reply code when it gave one; rethrows only when `signal` aborted it.
 */
export async function sendEmail(m: EmailMessage, o: SmtpOptions, signal: AbortSignal): Promise<EmailResult> {
  const u = new URL(o.url);
  const transport = createTransport({
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : undefined,
    secure: u.protocol === 'smtps:',
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    connectionTimeout: o.timeoutMs,
    greetingTimeout: o.timeoutMs,
    socketTimeout: o.timeoutMs,
    logger: false,
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const cut = new Promise<never>((_, reject) => {
    const stop = (why: unknown) => {
      transport.close();
      reject(why instanceof Error ? why : new Error(String(why)));
    };
    const slow = Object.assign(new Error(`SMTP try took over ${3 * o.timeoutMs} ms`), { code: 'ETIMEDOUT' });
    timer = setTimeout(() => stop(slow), 3 * o.timeoutMs);
    onAbort = () => stop(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  cut.catch(() => undefined); // raced below; never left unhandled
  try {
    const domain = /@([^>\s]+)>?$/.exec(o.from)?.[1] ?? 'localhost';
    const send = transport.sendMail({
      from: o.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      messageId: `<${m.deliveryId}@${domain}>`,
    });
    send.catch(() => undefined); // settled by the race below; a late rejection after the cut is expected
    await Promise.race([send, cut]);
    return { kind: 'sent' };
  } catch (err) {
    if (signal.aborted) throw err;
    const e = err as { responseCode?: number; code?: string; message?: string };
    const code = typeof e.responseCode === 'number' ? e.responseCode : null;
    const message = scrub(`${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`, o.url);
    return { kind: 'smtp', code, message };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    transport.close();
  }
}
