import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { ReceivedMail } from '../../support/smtp-sink';

/**
 * A real SMTP server that can hold a delivery in its DATA phase: after `hold()`, the next message's
 * data is read in full but not answered until `release()`, so the sender (the mail worker) is in the
 * middle of its job for as long as the test wants. Accepted messages are kept in `received`.
 */
export class HoldingSmtpSink {
  readonly received: ReceivedMail[] = [];
  private holding: { arrived: () => void; released: Promise<void> } | null = null;
  private releaseHeld: () => void = () => undefined;
  private readonly server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then(async (parsed) => {
            const hold = this.holding;
            if (hold) {
              this.holding = null;
              hold.arrived();
              await hold.released;
            }
            const to = (Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.value[0]?.address?.toLowerCase() ?? '';
            this.received.push({ to, subject: parsed.subject ?? '', html: typeof parsed.html === 'string' ? parsed.html : '', text: parsed.text ?? '', parsed });
            callback();
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

  /** Holds the next message; resolves once its data has arrived and the sender waits for the answer. */
  hold(): Promise<void> {
    const released = new Promise<void>((resolve) => (this.releaseHeld = resolve));
    return new Promise<void>((arrived) => (this.holding = { arrived, released }));
  }

  /** Answers the held message (250: accepted). */
  release(): void {
    this.releaseHeld();
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === address.toLowerCase());
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
