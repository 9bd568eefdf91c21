import { until } from './until';

/** The mail catcher of the local stack (MailDev's REST API on the port Mailpit has in docker/compose.yml). */
export const INBOX_URL = 'http://localhost:8025';

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  to: { address: string }[];
}

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const all = (await (await caughtMail()).json()) as CaughtMail[];
  return all.filter((mail) => mail.to.some((to) => to.address === address));
}

/**
 * Node's fetch may reuse a kept-alive connection the catcher has just closed and fail with "other
 * side closed" (nodejs/undici#3492); the list is only read, so it is asked once more on a new one.
 */
async function caughtMail(): Promise<Response> {
  try {
    return await fetch(`${INBOX_URL}/email`);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fetch(`${INBOX_URL}/email`);
  }
}

/** The first mail to `address`, once it has arrived (the catcher has no push API). */
export async function nextMailTo(address: string): Promise<CaughtMail> {
  let mail: CaughtMail | undefined;
  await until(`a mail to ${address}`, async () => Boolean((mail = (await mailsTo(address))[0])), 60_000);
  return mail!;
}
