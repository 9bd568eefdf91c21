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
  const all = (await (await fetch(`${INBOX_URL}/email`)).json()) as CaughtMail[];
  return all.filter((mail) => mail.to.some((to) => to.address === address));
}

/** The first mail to `address`, once it has arrived (the catcher has no push API). */
export async function nextMailTo(address: string): Promise<CaughtMail> {
  let mail: CaughtMail | undefined;
  await until(`a mail to ${address}`, async () => Boolean((mail = (await mailsTo(address))[0])), 60_000);
  return mail!;
}
