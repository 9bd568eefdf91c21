import { Translations } from '@sesame/entities';

export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export interface PageStrings {
  title: string;
  heading: string;
  prompt: string;
  emailLabel: string;
  submit: string;
  invalidEmail: string;
  tooEarly: string;
  sentHeading: string;
  sentBody: string;
  sentExpiry: string;
  sentAgain: string;
  codeLabel: string;
  codeSubmit: string;
  wrongCode: string;
  badCode: string;
  codesDisabled: string;
  approvalNumber: string;
}

/** The hosted page's strings; `{organization}`, `{application}`, `{email}`, `{minutes}` and `{time}` are filled in. */
export const PAGE_STRINGS: Record<Locale, PageStrings> = {
  en: {
    title: 'Sign in',
    heading: 'Sign in to {organization}',
    prompt: 'Enter your e-mail address and we will send you a link to sign in to {application}. No password needed.',
    emailLabel: 'E-mail address',
    submit: 'Send me a sign-in link',
    invalidEmail: 'Enter a valid e-mail address.',
    tooEarly: 'For your security, the next link for this address can be sent at {time} (UTC).',
    sentHeading: 'Check your inbox',
    sentBody: 'We sent a sign-in link to {email}. Open it and check that it shows this phrase:',
    sentExpiry: 'The link expires in {minutes} minutes and works once.',
    sentAgain: 'No e-mail? Check your spam folder. You can ask for a new link from {time} (UTC).',
    codeLabel: 'Or type the 6-digit code from the e-mail',
    codeSubmit: 'Sign in with the code',
    wrongCode: 'That code is not right. After 5 wrong codes this sign-in stops.',
    badCode: 'Enter the 6 digits of the code in the e-mail.',
    codesDisabled: 'Codes are turned off for this address after too many wrong ones. Open the link in the e-mail instead.',
    approvalNumber: 'Opening the link on another device, such as your phone? Type this number there:',
  },
  de: {
    title: 'Anmelden',
    heading: 'Bei {organization} anmelden',
    prompt: 'Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link zur Anmeldung bei {application}. Kein Passwort nötig.',
    emailLabel: 'E-Mail-Adresse',
    submit: 'Anmeldelink senden',
    invalidEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
    tooEarly: 'Zu Ihrer Sicherheit kann der nächste Link für diese Adresse um {time} (UTC) gesendet werden.',
    sentHeading: 'Sehen Sie in Ihr Postfach',
    sentBody: 'Wir haben einen Anmeldelink an {email} gesendet. Öffnen Sie ihn und prüfen Sie, dass er diesen Satz zeigt:',
    sentExpiry: 'Der Link ist {minutes} Minuten gültig und funktioniert nur einmal.',
    sentAgain: 'Keine E-Mail? Sehen Sie im Spam-Ordner nach. Einen neuen Link können Sie ab {time} (UTC) anfordern.',
    codeLabel: 'Oder geben Sie den 6-stelligen Code aus der E-Mail ein',
    codeSubmit: 'Mit dem Code anmelden',
    wrongCode: 'Dieser Code stimmt nicht. Nach 5 falschen Codes wird diese Anmeldung beendet.',
    badCode: 'Geben Sie die 6 Ziffern des Codes aus der E-Mail ein.',
    codesDisabled:
      'Nach zu vielen falschen Codes sind Codes für diese Adresse abgeschaltet. Öffnen Sie stattdessen den Link in der E-Mail.',
    approvalNumber: 'Öffnen Sie den Link auf einem anderen Gerät, etwa Ihrem Handy? Geben Sie dort diese Zahl ein:',
  },
  fr: {
    title: 'Connexion',
    heading: 'Connexion à {organization}',
    prompt: 'Saisissez votre adresse e-mail : nous vous enverrons un lien pour vous connecter à {application}. Aucun mot de passe requis.',
    emailLabel: 'Adresse e-mail',
    submit: 'Recevoir un lien de connexion',
    invalidEmail: 'Saisissez une adresse e-mail valide.',
    tooEarly: 'Pour votre sécurité, le prochain lien pour cette adresse pourra être envoyé à {time} (UTC).',
    sentHeading: 'Consultez votre boîte de réception',
    sentBody: 'Nous avons envoyé un lien de connexion à {email}. Ouvrez-le et vérifiez qu’il affiche cette phrase :',
    sentExpiry: 'Le lien expire dans {minutes} minutes et ne fonctionne qu’une fois.',
    sentAgain: 'Pas d’e-mail ? Vérifiez vos spams. Vous pourrez demander un nouveau lien à partir de {time} (UTC).',
    codeLabel: 'Ou saisissez le code à 6 chiffres de l’e-mail',
    codeSubmit: 'Se connecter avec le code',
    wrongCode: 'Ce code n’est pas le bon. Après 5 codes erronés, cette connexion s’arrête.',
    badCode: 'Saisissez les 6 chiffres du code de l’e-mail.',
    codesDisabled: 'Les codes sont désactivés pour cette adresse après trop d’erreurs. Ouvrez plutôt le lien de l’e-mail.',
    approvalNumber: 'Vous ouvrez le lien sur un autre appareil, comme votre téléphone ? Saisissez-y ce nombre :',
  },
  es: {
    title: 'Iniciar sesión',
    heading: 'Inicia sesión en {organization}',
    prompt: 'Escribe tu correo electrónico y te enviaremos un enlace para iniciar sesión en {application}. Sin contraseña.',
    emailLabel: 'Correo electrónico',
    submit: 'Enviarme un enlace',
    invalidEmail: 'Escribe un correo electrónico válido.',
    tooEarly: 'Por tu seguridad, el próximo enlace para esta dirección se podrá enviar a las {time} (UTC).',
    sentHeading: 'Revisa tu bandeja de entrada',
    sentBody: 'Hemos enviado un enlace a {email}. Ábrelo y comprueba que muestra esta frase:',
    sentExpiry: 'El enlace caduca en {minutes} minutos y solo funciona una vez.',
    sentAgain: '¿No llega el correo? Revisa la carpeta de spam. Puedes pedir un enlace nuevo a partir de las {time} (UTC).',
    codeLabel: 'O escribe el código de 6 cifras del correo',
    codeSubmit: 'Iniciar sesión con el código',
    wrongCode: 'Ese código no es correcto. Tras 5 códigos erróneos, este inicio de sesión se detiene.',
    badCode: 'Escribe las 6 cifras del código del correo.',
    codesDisabled: 'Los códigos están desactivados para esta dirección tras demasiados errores. Abre el enlace del correo.',
    approvalNumber: '¿Abres el enlace en otro dispositivo, como tu móvil? Escribe allí este número:',
  },
};

/** The login e-mail in each language (English is the mail worker's default, so it needs no override). */
export const MAIL_STRINGS: Record<Exclude<Locale, 'en'>, Required<Translations>> = {
  de: {
    subject: 'Ihr Anmeldelink für {organization}',
    greeting: 'Hallo,',
    intro:
      'Klicken Sie auf die Schaltfläche, um sich bei {organization} anzumelden. Die Seite zeigt diesen Satz, damit Sie prüfen können, dass die Anfrage von Ihnen stammt:',
    button: 'Anmelden',
    code: 'Oder geben Sie diesen Code dort ein, wo Sie die Anmeldung angefordert haben:',
    expiry: 'Der Link ist {minutes} Minuten gültig und funktioniert nur einmal.',
    ignore: 'Wenn Sie sich nicht anmelden wollten, können Sie diese E-Mail ignorieren.',
  },
  fr: {
    subject: 'Votre lien de connexion à {organization}',
    greeting: 'Bonjour,',
    intro:
      'Cliquez sur le bouton pour vous connecter à {organization}. La page affiche cette phrase, pour que vous puissiez vérifier que la demande vient de vous :',
    button: 'Se connecter',
    code: 'Ou saisissez ce code là où vous avez demandé à vous connecter :',
    expiry: 'Le lien expire dans {minutes} minutes et ne fonctionne qu’une fois.',
    ignore: 'Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail.',
  },
  es: {
    subject: 'Tu enlace para iniciar sesión en {organization}',
    greeting: 'Hola:',
    intro:
      'Pulsa el botón para iniciar sesión en {organization}. La página muestra esta frase para que compruebes que la solicitud es tuya:',
    button: 'Iniciar sesión',
    code: 'O escribe este código donde pediste iniciar sesión:',
    expiry: 'El enlace caduca en {minutes} minutos y solo funciona una vez.',
    ignore: 'Si no intentaste iniciar sesión, ignora este correo.',
  },
};

/** The first supported language of `ui_locales` (RFC 7230 space-separated tags), then of Accept-Language, else English. */
export function chooseLocale(uiLocales: string | undefined, acceptLanguage: string | undefined): Locale {
  const candidates = [...(uiLocales?.split(/\s+/) ?? []), ...(acceptLanguage?.split(',').map((part) => part.split(';')[0]) ?? [])];
  for (const candidate of candidates) {
    const language = candidate.trim().toLowerCase().split('-')[0];
    if ((LOCALES as readonly string[]).includes(language)) return language as Locale;
  }
  return 'en';
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
