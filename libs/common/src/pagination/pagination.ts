import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { badRequest } from '../problems/problem.exception';

/** Query parameters of every list endpoint: keyset pagination ordered by creation. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20, description: 'Items per page.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface PagePosition {
  createdAt: Date;
  id: string;
}

/** Builds an OpenAPI-described page class for the item type, e.g. `class OrganizationPage extends pageOf(OrganizationResponse) {}`. */
export function pageOf<T>(item: new (...args: never[]) => T) {
  class PageOfItems {
    @ApiProperty({ type: [item] })
    data: T[];

    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` to get the next page; null on the last page.' })
    nextCursor: string | null;
  }
  return PageOfItems;
}

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): PagePosition | null {
  if (cursor === undefined) return null;
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(createdAt ?? '');
  if (Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? '')) throw badRequest('invalid_cursor', 'cursor is not a cursor this API returned');
  return { createdAt: date, id };
}

/** Turns `limit + 1` fetched rows into a page: the extra row only tells that another page exists. */
export function toPage<Row extends PagePosition, T>(rows: Row[], limit: number, map: (row: Row) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { data: items.map(map), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
