/**
 * Every standalone two-digit number in a text or an HTML document: the
 * approval number is two digits, so a page or e-mail that shows it has it as one of these. A
 * number that is part of a word, a token, a time (08:30), a date or a decimal does not count, nor
 * a link's lifetime ("expires in 10 minutes"), nor what draws the page: style sheets, inline SVG
 * icons (viewBox="0 0 24 24") and data: URLs (the favicon's %22).
 */
export function twoDigitNumbersIn(text: string): string[] {
  const counted = text
    .replace(/<(style|svg)[\s>][\s\S]*?<\/\1>/g, ' ')
    .replace(/data:[^"'\s]*/g, ' ')
    .replace(/\d+ (minutes|Minuten|minutos)/g, ' ');
  return [...counted.matchAll(/(?<![\w.:-])\d{2}(?![\w.:-])/g)].map((match) => match[0]);
}

/** Asserts that none of `texts` (pages, e-mails, answers the approving side sees) shows the approval number. */
export function expectApprovalNumberAbsent(texts: string[], approvalNumber: string): void {
  for (const text of texts) expect(twoDigitNumbersIn(text)).not.toContain(approvalNumber);
}

/** Another approval number than `approvalNumber` (10–99). */
export function wrongApprovalNumber(approvalNumber: string): string {
  return String(approvalNumber === '99' ? 10 : Number(approvalNumber) + 1);
}

/** Every document (HTML page) a browser page receives from now on, redirects included: what a person there could have seen. */
export function recordDocuments(page: import('playwright-core').Page): string[] {
  const documents: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' || (response.status() >= 300 && response.status() < 400)) return;
    void response.text().then(
      (text) => documents.push(text),
      () => undefined,
    );
  });
  return documents;
}
