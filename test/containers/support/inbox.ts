/** The mail catcher of the local stack (MailDev's REST API on the port Mailpit has in docker/compose.yml). */
export const INBOX_URL = 'http://localhost:8025';

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  to: { address: string }[];
}

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const response = await fetch(`${INBOX_URL}/email`);
  const all = (await response.json()) as CaughtMail[];
  return all.filter((mail) => mail.to.some((to) => to.address === address));
}

/** Waits for the first mail to `address` (the catcher has no push API; it is asked twice a second). */
export async function nextMailTo(address: string, timeoutMs = 60_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [mail] = await mailsTo(address);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${address} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
