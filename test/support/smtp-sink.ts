import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  parsed: ParsedMail;
  /** When it arrived (ms since the epoch): a mail taken later was still received then. */
  receivedAt: number;
}

/**
 * A real SMTP server (the `smtp-server` package) that keeps what it receives. Tests wait for
 * mail with `next()`, which resolves on arrival (no polling), and can make the server refuse
 * the first N deliveries.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private waiters: { match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  private refusals = 0;
  /** Delivery attempts seen, including refused ones. */
  attempts = 0;
  private server: SMTPServer | null = null;

  /**
   * A new server on every start: smtp-server answers 421 to everything once close() has been
   * called, even after listening again.
   */
  private createServer(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // stop() waits this long for the senders' pooled connections, then closes them (421).
      closeTimeout: 1000,
      onData: (stream, _session, callback) => {
        this.attempts += 1;
        if (this.refusals > 0) {
          this.refusals -= 1;
          stream.resume();
          stream.on('end', () => callback(Object.assign(new Error('Temporary failure, try later'), { responseCode: 451 })));
          return;
        }
        simpleParser(stream)
          .then((parsed) => {
            this.accept(parsed);
            callback();
          })
          .catch(callback);
      },
    });
  }

  /** Listens on a free port, or again on the port it had before stop() (an SMTP outage that ends). */
  async start(port = 0): Promise<void> {
    const server = this.createServer();
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server!.server.address() as AddressInfo).port}`;
  }

  /** Refuse the next `count` deliveries with a temporary error (451). */
  refuseNext(count: number): void {
    this.refusals = count;
  }

  /** Resolves with the first mail (already received or still to come) to this address that has not been taken yet. */
  next(to: string): Promise<ReceivedMail> {
    const match = (mail: ReceivedMail) => mail.to === to.toLowerCase();
    const index = this.received.findIndex(match);
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Mail received for an address and not taken by next(). */
  pending(to: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === to.toLowerCase());
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(parsed: ParsedMail): void {
    const to = (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value[0]?.address?.toLowerCase() ?? '';
    const mail: ReceivedMail = {
      to,
      subject: parsed.subject ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      text: parsed.text ?? '',
      parsed,
      receivedAt: Date.now(),
    };
    const waiter = this.waiters.find((candidate) => candidate.match(mail));
    if (waiter) {
      this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
      waiter.resolve(mail);
    } else {
      this.received.push(mail);
    }
  }
}

/** The login link in a mail's text part. */
export function linkIn(mail: Pick<ReceivedMail, 'text'>): string {
  const match = /https?:\/\/\S+\/v1\/login_link\?token=[A-Za-z0-9_-]+/.exec(mail.text);
  if (!match) throw new Error(`No login link in mail: ${mail.text}`);
  return match[0];
}

/** The 6-digit login code in a mail's text part, without its space. */
export function codeIn(mail: ReceivedMail): string {
  const match = /^\s*(\d{3}) (\d{3})\s*$/m.exec(mail.text);
  if (!match) throw new Error(`No login code in mail: ${mail.text}`);
  return match[1] + match[2];
}
