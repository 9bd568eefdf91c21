import { decodeCursor, PageQuery } from '@sesame/common';

/** Lists are ordered by creation: oldest first (the default), or newest first for logs (audit events, login activity). */
export type PageOrder = 'oldest' | 'newest';

/**
 * The end of a list statement: its rows after the cursor (an ` AND …` to append to its WHERE),
 * ordered by creation then id, `limit + 1` of them; the extra row only tells toPage() that
 * another page exists. Adds its parameters to `params`; `alias` qualifies created_at and id.
 */
export function keysetPage(
  page: PageQuery,
  params: unknown[],
  order: PageOrder = 'oldest',
  alias = '',
): { after: string; orderAndLimit: string } {
  const position = decodeCursor(page.cursor);
  const direction = order === 'oldest' ? 'ASC' : 'DESC';
  let after = '';
  if (position) {
    params.push(position.createdAt, position.id);
    after = ` AND (${alias}created_at, ${alias}id) ${order === 'oldest' ? '>' : '<'} ($${params.length - 1}, $${params.length})`;
  }
  params.push(page.limit + 1);
  return { after, orderAndLimit: `ORDER BY ${alias}created_at ${direction}, ${alias}id ${direction} LIMIT $${params.length}` };
}
