import { chooseLocale, fill, LOCALES, MAIL_STRINGS, PAGE_STRINGS } from './locales';

describe('chooseLocale', () => {
  it.each([
    ['de', undefined, 'de'],
    ['fr-CA', undefined, 'fr'],
    ['it es de', undefined, 'es'],
    ['ES', undefined, 'es'],
    [undefined, 'de-CH,de;q=0.9,en;q=0.5', 'de'],
    [undefined, 'ja, fr;q=0.5', 'fr'],
    ['it', 'es-MX', 'es'],
    ['de', 'fr', 'de'],
    [undefined, undefined, 'en'],
    ['xx', 'yy', 'en'],
    ['', '', 'en'],
  ])('ui_locales=%j, Accept-Language=%j → %s', (uiLocales, acceptLanguage, expected) => {
    expect(chooseLocale(uiLocales, acceptLanguage)).toBe(expected);
  });
});

describe('fill', () => {
  it('fills known placeholders and leaves unknown ones', () => {
    expect(fill('{a} and {b} and {c}', { a: 1, b: 'two' })).toBe('1 and two and {c}');
  });
});

describe('translations', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

  it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has every page string, with the same placeholders as English', (locale) => {
    for (const [key, english] of Object.entries(PAGE_STRINGS.en)) {
      const translated = PAGE_STRINGS[locale][key as keyof typeof PAGE_STRINGS.en];
      expect({ key, text: translated.length > 0 }).toEqual({ key, text: true });
      expect({ key, placeholders: placeholders(translated) }).toEqual({ key, placeholders: placeholders(english) });
    }
  });

  it.each(Object.keys(MAIL_STRINGS) as (keyof typeof MAIL_STRINGS)[])('%s has every e-mail string', (locale) => {
    expect(Object.keys(MAIL_STRINGS[locale]).sort()).toEqual(['button', 'code', 'expiry', 'greeting', 'ignore', 'intro', 'subject']);
  });

  it('the check-your-inbox sentence names the address exactly once in every language', () => {
    for (const locale of LOCALES) expect(PAGE_STRINGS[locale].sentBody.split('{email}')).toHaveLength(2);
  });
});
