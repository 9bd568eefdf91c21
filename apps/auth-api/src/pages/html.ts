/** HTML that is already safe to emit. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

type Interpolation = SafeHtml | string | number | null | undefined | false | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template tag that escapes every interpolated value unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, string, index) => out + string + (index < values.length ? render(values[index]) : ''), ''));
}

/** Fills `{name}` placeholders of a (translated) plain-text template with values, escaping the text around them. */
export function fillHtml(template: string, values: Record<string, Interpolation>): SafeHtml {
  const parts = template.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in values ? render(values[name]) : escapeHtml(part);
  });
  return new SafeHtml(parts.join(''));
}

/** A time of day as the pages show it (UTC, to the second): the pages say "(UTC)" beside it. */
export function clockTime(date: Date): string {
  return date.toISOString().slice(11, 19);
}
