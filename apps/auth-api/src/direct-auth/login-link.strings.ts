import { Locale } from '../login-page/locales';

export interface LinkStrings {
  title: string;
  heading: string;
  signingInAs: string;
  twoWays: string;
  continueHere: string;
  signInElsewhere: string;
  nothingHappens: string;
  stopped: { used: string; expired: string; locked: string };
  stoppedText: string;
  stoppedTextLocked: string;
  backTo: string;
  startAgainAt: string;
  requested: string;
  requestedFrom: string;
  pickPhrase: string;
  phraseLegend: string;
  approve: string;
  nothingAsked: string;
  approvedHeading: string;
  approvedText: string;
  wrongPhraseText: string;
  usedText: string;
  startAgainText: string;
}

/**
 * The login-link pages (the page a link opens, the approval from another device and its outcome),
 * in the hosted page's languages; `{organization}`, `{application}`, `{email}`, `{device}` and
 * `{time}` are filled in.
 */
export const LINK_STRINGS: Record<Locale, LinkStrings> = {
  en: {
    title: 'Sign in',
    heading: 'Sign in to {organization}',
    signingInAs: 'You are signing in to {application} as {email}. Check that this phrase matches the one the application showed you:',
    twoWays: 'Asked to sign in on this device? Continue here. Asked on another one, such as your computer? Sign in there from here.',
    continueHere: 'Continue here',
    signInElsewhere: 'Sign in on the device where you asked',
    nothingHappens: 'If you did not try to sign in, close this page. Nothing happens until you press a button.',
    stopped: { used: 'This link was already used', expired: 'This link has expired', locked: 'This sign-in was stopped' },
    stoppedText: 'Sign-in links work once and only for a short time. Go back to {application} to get a new one.',
    stoppedTextLocked: 'Sign-in links work once and only for a short time, and stop after wrong codes or a wrong phrase. Go back to {application} to get a new one.',
    backTo: 'Back to {application}',
    startAgainAt: 'Go back to {application} to start again.',
    requested: 'Someone asked to sign in to {application} as {email} at {time} (UTC).',
    requestedFrom: 'Someone asked to sign in to {application} as {email} from {device} at {time} (UTC).',
    pickPhrase: 'Which phrase does that screen show? Pick it to sign that device in. A wrong pick stops this sign-in.',
    phraseLegend: 'The phrase on the screen where you asked',
    approve: 'Sign that device in',
    nothingAsked: 'If you did not ask to sign in anywhere, close this page: nothing happens.',
    approvedHeading: 'The other device is now signed in',
    approvedText: 'You can close this page and go on where you asked to sign in.',
    wrongPhraseText: 'The phrase did not match the one of this sign-in, so nobody was signed in. Start again on your device.',
    usedText: 'Nothing more to do here.',
    startAgainText: 'Start again on your device.',
  },
  de: {
    title: 'Anmelden',
    heading: 'Bei {organization} anmelden',
    signingInAs: 'Sie melden sich bei {application} als {email} an. Prüfen Sie, dass dieser Satz dem entspricht, den die Anwendung Ihnen gezeigt hat:',
    twoWays: 'Auf diesem Gerät angefragt? Fahren Sie hier fort. Auf einem anderen, etwa Ihrem Computer? Melden Sie es von hier aus an.',
    continueHere: 'Hier fortfahren',
    signInElsewhere: 'Auf dem anfragenden Gerät anmelden',
    nothingHappens: 'Wenn Sie sich nicht anmelden wollten, schließen Sie diese Seite. Ohne Klick geschieht nichts.',
    stopped: { used: 'Dieser Link wurde bereits verwendet', expired: 'Dieser Link ist abgelaufen', locked: 'Diese Anmeldung wurde beendet' },
    stoppedText: 'Anmeldelinks funktionieren nur einmal und nur kurze Zeit. Fordern Sie bei {application} einen neuen an.',
    stoppedTextLocked:
      'Anmeldelinks funktionieren nur einmal und nur kurze Zeit, und nach falschen Codes oder einem falschen Satz nicht mehr. Fordern Sie bei {application} einen neuen an.',
    backTo: 'Zurück zu {application}',
    startAgainAt: 'Beginnen Sie bei {application} erneut.',
    requested: 'Jemand hat um {time} (UTC) die Anmeldung bei {application} als {email} angefragt.',
    requestedFrom: 'Jemand hat um {time} (UTC) von {device} die Anmeldung bei {application} als {email} angefragt.',
    pickPhrase: 'Welchen Satz zeigt dieser Bildschirm? Wählen Sie ihn, um das Gerät anzumelden. Eine falsche Wahl beendet diese Anmeldung.',
    phraseLegend: 'Der Satz auf dem anfragenden Bildschirm',
    approve: 'Dieses Gerät anmelden',
    nothingAsked: 'Wenn Sie nirgends eine Anmeldung angefragt haben, schließen Sie diese Seite: Es geschieht nichts.',
    approvedHeading: 'Das andere Gerät ist jetzt angemeldet',
    approvedText: 'Sie können diese Seite schließen und dort weitermachen, wo Sie die Anmeldung angefragt haben.',
    wrongPhraseText: 'Der Satz passte nicht zu dieser Anmeldung, daher wurde niemand angemeldet. Beginnen Sie auf Ihrem Gerät erneut.',
    usedText: 'Hier ist nichts mehr zu tun.',
    startAgainText: 'Beginnen Sie auf Ihrem Gerät erneut.',
  },
  fr: {
    title: 'Connexion',
    heading: 'Connexion à {organization}',
    signingInAs: 'Vous vous connectez à {application} en tant que {email}. Vérifiez que cette phrase est celle que l’application vous a montrée :',
    twoWays: 'Demandé sur cet appareil ? Continuez ici. Sur un autre, comme votre ordinateur ? Connectez-le depuis cette page.',
    continueHere: 'Continuer ici',
    signInElsewhere: 'Connecter l’appareil où vous l’avez demandé',
    nothingHappens: 'Si vous n’avez pas essayé de vous connecter, fermez cette page. Rien ne se passe tant que vous n’appuyez sur aucun bouton.',
    stopped: { used: 'Ce lien a déjà été utilisé', expired: 'Ce lien a expiré', locked: 'Cette connexion a été arrêtée' },
    stoppedText: 'Les liens de connexion ne fonctionnent qu’une fois et peu de temps. Retournez sur {application} pour en obtenir un nouveau.',
    stoppedTextLocked:
      'Les liens de connexion ne fonctionnent qu’une fois et peu de temps, et s’arrêtent après des codes erronés ou une mauvaise phrase. Retournez sur {application} pour en obtenir un nouveau.',
    backTo: 'Retour à {application}',
    startAgainAt: 'Retournez sur {application} pour recommencer.',
    requested: 'Quelqu’un a demandé à se connecter à {application} en tant que {email} à {time} (UTC).',
    requestedFrom: 'Quelqu’un a demandé à se connecter à {application} en tant que {email} depuis {device} à {time} (UTC).',
    pickPhrase: 'Quelle phrase cet écran affiche-t-il ? Choisissez-la pour connecter cet appareil. Un mauvais choix arrête cette connexion.',
    phraseLegend: 'La phrase de l’écran où vous l’avez demandé',
    approve: 'Connecter cet appareil',
    nothingAsked: 'Si vous n’avez demandé de connexion nulle part, fermez cette page : rien ne se passe.',
    approvedHeading: 'L’autre appareil est maintenant connecté',
    approvedText: 'Vous pouvez fermer cette page et continuer là où vous avez demandé la connexion.',
    wrongPhraseText: 'La phrase ne correspondait pas à cette connexion : personne n’a été connecté. Recommencez sur votre appareil.',
    usedText: 'Il n’y a plus rien à faire ici.',
    startAgainText: 'Recommencez sur votre appareil.',
  },
  es: {
    title: 'Iniciar sesión',
    heading: 'Inicia sesión en {organization}',
    signingInAs: 'Estás iniciando sesión en {application} como {email}. Comprueba que esta frase coincide con la que te mostró la aplicación:',
    twoWays: '¿Lo pediste en este dispositivo? Continúa aquí. ¿En otro, como tu ordenador? Inicia sesión allí desde aquí.',
    continueHere: 'Continuar aquí',
    signInElsewhere: 'Iniciar sesión en el dispositivo donde lo pediste',
    nothingHappens: 'Si no intentaste iniciar sesión, cierra esta página. No pasa nada hasta que pulses un botón.',
    stopped: { used: 'Este enlace ya se usó', expired: 'Este enlace ha caducado', locked: 'Este inicio de sesión se detuvo' },
    stoppedText: 'Los enlaces funcionan una sola vez y durante poco tiempo. Vuelve a {application} para pedir uno nuevo.',
    stoppedTextLocked: 'Los enlaces funcionan una sola vez y durante poco tiempo, y se detienen tras códigos erróneos o una frase equivocada. Vuelve a {application} para pedir uno nuevo.',
    backTo: 'Volver a {application}',
    startAgainAt: 'Vuelve a {application} para empezar de nuevo.',
    requested: 'Alguien pidió iniciar sesión en {application} como {email} a las {time} (UTC).',
    requestedFrom: 'Alguien pidió iniciar sesión en {application} como {email} desde {device} a las {time} (UTC).',
    pickPhrase: '¿Qué frase muestra esa pantalla? Elígela para iniciar sesión en ese dispositivo. Una elección equivocada detiene este inicio de sesión.',
    phraseLegend: 'La frase de la pantalla donde lo pediste',
    approve: 'Iniciar sesión en ese dispositivo',
    nothingAsked: 'Si no pediste iniciar sesión en ningún sitio, cierra esta página: no pasa nada.',
    approvedHeading: 'El otro dispositivo ya ha iniciado sesión',
    approvedText: 'Puedes cerrar esta página y seguir donde pediste iniciar sesión.',
    wrongPhraseText: 'La frase no coincidía con la de este inicio de sesión, así que nadie inició sesión. Empieza de nuevo en tu dispositivo.',
    usedText: 'No queda nada por hacer aquí.',
    startAgainText: 'Empieza de nuevo en tu dispositivo.',
  },
};
