import { decodeCursor, PageQuery } from '@sesame/common';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Lists are ordered by creation: oldest first (the default), or newest first for logs (audit events, login activity). */
type PageOrder = 'oldest' | 'newest';

/**
 * (Query-builder form, until the management API's last repositories move here: issue 27.)
 * Orders a list query by creation (then id) and keeps `limit + 1` rows after the cursor; the
 * extra row only tells toPage() that another page exists.
 */
export function keysetQueryBuilder<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, page: PageQuery, order: PageOrder = 'oldest'): SelectQueryBuilder<T> {
  const alias = query.alias;
  const after = decodeCursor(page.cursor);
  const direction = order === 'oldest' ? 'ASC' : 'DESC';
  query.orderBy(`${alias}.createdAt`, direction).addOrderBy(`${alias}.id`, direction).limit(page.limit + 1);
  if (after) query.andWhere(`(${alias}.createdAt, ${alias}.id) ${order === 'oldest' ? '>' : '<'} (:createdAt, :id)`, after);
  return query;
}
