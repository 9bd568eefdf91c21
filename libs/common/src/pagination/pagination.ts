import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { problem } from '../problems/problem.exception';

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

// Exactly what encodeCursor writes: a four-digit-year ISO timestamp (within Postgres' range) and a UUID.
const CURSOR_SHAPE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function decodeCursor(cursor: string | undefined): PagePosition | null {
  if (cursor === undefined) return null;
  const match = CURSOR_SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const date = new Date(match?.[1] ?? '');
  if (!match || Number.isNaN(date.getTime()) || date.toISOString() !== match[1]) {
    throw problem('invalid_cursor', 'cursor is not a cursor this API returned');
  }
  return { createdAt: date, id: match[2] };
}

/** Turns `limit + 1` fetched rows into a page: the extra row only tells that another page exists. */
export function toPage<Row extends PagePosition, T>(rows: Row[], limit: number, map: (row: Row) => T): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { data: items.map(map), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
