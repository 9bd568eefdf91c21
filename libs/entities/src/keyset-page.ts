import { decodeCursor, PageQuery } from '@sesame/common';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Orders a list query by creation (then id) and keeps `limit + 1` rows after the cursor; the
 * extra row only tells toPage() that another page exists.
 */
export function keysetPage<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, page: PageQuery): SelectQueryBuilder<T> {
  const alias = query.alias;
  const after = decodeCursor(page.cursor);
  query.orderBy(`${alias}.createdAt`, 'ASC').addOrderBy(`${alias}.id`, 'ASC').limit(page.limit + 1);
  if (after) query.andWhere(`(${alias}.createdAt, ${alias}.id) > (:createdAt, :id)`, after);
  return query;
}
