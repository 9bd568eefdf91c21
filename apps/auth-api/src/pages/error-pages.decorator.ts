import { applyDecorators, UseFilters } from '@nestjs/common';
import { ApiErrorPages } from '@sesame/common';
import { PageErrorFilter } from './page-error.filter';

/** The controller's errors are HTML pages (PageErrorFilter), and its OpenAPI operations say so. */
export const ErrorPages = () => applyDecorators(UseFilters(PageErrorFilter), ApiErrorPages());
