import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { ReceivedMail } from './smtp-sink';

/**
 * A real SMTP server that can hold a delivery open: `hold()` makes the next message wait after
 * its data has arrived until `release()`, so a test can act (stop the worker, say) while the
 * worker is in the middle of sending. Everything accepted is kept in `received`.
 */
export class HoldingSmtp {
  readonly received: ReceivedMail[] = [];
  private holding = false;
  private arrived: (() => void) | null = null;
  private releaseHeld: (() => void) | null = null;
  private waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then(async (parsed) => {
            if (this.holding) {
              this.holding = false;
              const gate = new Promise<void>((resolve) => (this.releaseHeld = resolve));
              this.arrived?.();
              await gate;
            }
            const to = (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value[0]?.address?.toLowerCase() ?? '';
            const mail: ReceivedMail = {
              to,
              subject: parsed.subject ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              text: parsed.text ?? '',
              parsed,
              receivedAt: Date.now(),
            };
            this.received.push(mail);
            callback();
            for (const waiter of this.waiters.filter((candidate) => candidate.to === to)) waiter.resolve(mail);
            this.waiters = this.waiters.filter((candidate) => candidate.to !== to);
          })
          .catch(callback);
      },
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** Holds the next delivery; the promise resolves once its data has arrived (the sender is now waiting for our answer). */
  hold(): Promise<void> {
    this.holding = true;
    return new Promise<void>((resolve) => (this.arrived = resolve));
  }

  /** Accepts the held delivery. */
  release(): void {
    this.releaseHeld?.();
    this.releaseHeld = null;
  }

  /** Resolves with the first mail accepted for an address (at once if one already was). */
  first(address: string): Promise<ReceivedMail> {
    const to = address.toLowerCase();
    const existing = this.received.find((mail) => mail.to === to);
    return existing ? Promise.resolve(existing) : new Promise((resolve) => this.waiters.push({ to, resolve }));
  }

  /** Mail accepted for an address. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === address.toLowerCase());
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
