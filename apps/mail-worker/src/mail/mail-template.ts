import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A handlebars template of templates/ (copied into dist/ by the build); strict: a missing value is an error, not an empty string. */
export function compileTemplate(file: string): Handlebars.TemplateDelegate {
  return Handlebars.compile(readFileSync(join(__dirname, 'templates', file), 'utf8'), { strict: true });
}
