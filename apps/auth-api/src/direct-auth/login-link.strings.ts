import { Locale } from '../pages/locales';

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
  deviceLabel: string;
  networkLabel: string;
  timeLabel: string;
  unknown: string;
  doNotApprove: string;
  numberLabel: string;
  numberHint: string;
  approve: string;
  approvedHeading: string;
  approvedText: string;
  wrongNumberHeading: string;
  wrongNumberText: string;
  approvalEndedHeading: string;
  usedText: string;
  startAgainText: string;
}

/**
 * The login-link pages (the page a link opens, the approval from another device and its outcome),
 * in the hosted page's languages; `{organization}`, `{application}` and `{email}` are filled in.
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
    stoppedTextLocked:
      'Sign-in links work once and only for a short time, and stop after too many wrong codes. Go back to {application} to get a new one.',
    backTo: 'Back to {application}',
    startAgainAt: 'Go back to {application} to start again.',
    requested: 'Someone asked to sign in to {application} as {email}:',
    deviceLabel: 'Device',
    networkLabel: 'Network',
    timeLabel: 'Time (UTC)',
    unknown: 'not known',
    doNotApprove:
      'If you did not just ask to sign in on a screen in front of you, do not approve: close this page. Someone else may be trying to sign in as you.',
    numberLabel: 'The number on the screen where you asked',
    numberHint: 'That screen shows a two-digit number. Type it here to sign that device in.',
    approve: 'Approve',
    approvedHeading: 'Approved — go back to the other device',
    approvedText: 'The other device signs in by itself. You can close this page.',
    wrongNumberHeading: 'That number did not match',
    wrongNumberText:
      'Nobody was signed in, and this sign-in can no longer be approved from another device. On the device where you asked, open this e-mail’s link there or type its code.',
    approvalEndedHeading: 'This sign-in can no longer be approved from here',
    usedText: 'Nothing more to do here.',
    startAgainText: 'Start again on your device.',
  },
  de: {
    title: 'Anmelden',
    heading: 'Bei {organization} anmelden',
    signingInAs:
      'Sie melden sich bei {application} als {email} an. Prüfen Sie, dass dieser Satz dem entspricht, den die Anwendung Ihnen gezeigt hat:',
    twoWays: 'Auf diesem Gerät angefragt? Fahren Sie hier fort. Auf einem anderen, etwa Ihrem Computer? Melden Sie es von hier aus an.',
    continueHere: 'Hier fortfahren',
    signInElsewhere: 'Auf dem anfragenden Gerät anmelden',
    nothingHappens: 'Wenn Sie sich nicht anmelden wollten, schließen Sie diese Seite. Ohne Klick geschieht nichts.',
    stopped: {
      used: 'Dieser Link wurde bereits verwendet',
      expired: 'Dieser Link ist abgelaufen',
      locked: 'Diese Anmeldung wurde beendet',
    },
    stoppedText: 'Anmeldelinks funktionieren nur einmal und nur kurze Zeit. Fordern Sie bei {application} einen neuen an.',
    stoppedTextLocked:
      'Anmeldelinks funktionieren nur einmal und nur kurze Zeit, und nach zu vielen falschen Codes nicht mehr. Fordern Sie bei {application} einen neuen an.',
    backTo: 'Zurück zu {application}',
    startAgainAt: 'Beginnen Sie bei {application} erneut.',
    requested: 'Jemand hat die Anmeldung bei {application} als {email} angefragt:',
    deviceLabel: 'Gerät',
    networkLabel: 'Netzwerk',
    timeLabel: 'Zeit (UTC)',
    unknown: 'unbekannt',
    doNotApprove:
      'Wenn Sie nicht gerade selbst auf einem Bildschirm vor Ihnen die Anmeldung angefragt haben, bestätigen Sie nicht: Schließen Sie diese Seite. Vielleicht versucht jemand anderes, sich als Sie anzumelden.',
    numberLabel: 'Die Zahl auf dem anfragenden Bildschirm',
    numberHint: 'Dieser Bildschirm zeigt eine zweistellige Zahl. Geben Sie sie hier ein, um das Gerät anzumelden.',
    approve: 'Bestätigen',
    approvedHeading: 'Bestätigt – zurück zum anderen Gerät',
    approvedText: 'Das andere Gerät meldet sich von selbst an. Sie können diese Seite schließen.',
    wrongNumberHeading: 'Die Zahl passte nicht',
    wrongNumberText:
      'Niemand wurde angemeldet, und diese Anmeldung kann nicht mehr von einem anderen Gerät bestätigt werden. Öffnen Sie auf dem anfragenden Gerät den Link dieser E-Mail oder geben Sie dort ihren Code ein.',
    approvalEndedHeading: 'Diese Anmeldung kann hier nicht mehr bestätigt werden',
    usedText: 'Hier ist nichts mehr zu tun.',
    startAgainText: 'Beginnen Sie auf Ihrem Gerät erneut.',
  },
  fr: {
    title: 'Connexion',
    heading: 'Connexion à {organization}',
    signingInAs:
      'Vous vous connectez à {application} en tant que {email}. Vérifiez que cette phrase est celle que l’application vous a montrée :',
    twoWays: 'Demandé sur cet appareil ? Continuez ici. Sur un autre, comme votre ordinateur ? Connectez-le depuis cette page.',
    continueHere: 'Continuer ici',
    signInElsewhere: 'Connecter l’appareil où vous l’avez demandé',
    nothingHappens:
      'Si vous n’avez pas essayé de vous connecter, fermez cette page. Rien ne se passe tant que vous n’appuyez sur aucun bouton.',
    stopped: { used: 'Ce lien a déjà été utilisé', expired: 'Ce lien a expiré', locked: 'Cette connexion a été arrêtée' },
    stoppedText:
      'Les liens de connexion ne fonctionnent qu’une fois et peu de temps. Retournez sur {application} pour en obtenir un nouveau.',
    stoppedTextLocked:
      'Les liens de connexion ne fonctionnent qu’une fois et peu de temps, et s’arrêtent après trop de codes erronés. Retournez sur {application} pour en obtenir un nouveau.',
    backTo: 'Retour à {application}',
    startAgainAt: 'Retournez sur {application} pour recommencer.',
    requested: 'Quelqu’un a demandé à se connecter à {application} en tant que {email} :',
    deviceLabel: 'Appareil',
    networkLabel: 'Réseau',
    timeLabel: 'Heure (UTC)',
    unknown: 'inconnu',
    doNotApprove:
      'Si vous ne venez pas de demander une connexion sur un écran devant vous, n’approuvez pas : fermez cette page. Quelqu’un d’autre essaie peut-être de se connecter à votre place.',
    numberLabel: 'Le nombre affiché sur l’écran où vous l’avez demandé',
    numberHint: 'Cet écran affiche un nombre à deux chiffres. Saisissez-le ici pour connecter cet appareil.',
    approve: 'Approuver',
    approvedHeading: 'Approuvé — retournez sur l’autre appareil',
    approvedText: 'L’autre appareil se connecte tout seul. Vous pouvez fermer cette page.',
    wrongNumberHeading: 'Ce nombre ne correspondait pas',
    wrongNumberText:
      'Personne n’a été connecté, et cette connexion ne peut plus être approuvée depuis un autre appareil. Sur l’appareil où vous l’avez demandée, ouvrez-y le lien de cet e-mail ou saisissez son code.',
    approvalEndedHeading: 'Cette connexion ne peut plus être approuvée d’ici',
    usedText: 'Il n’y a plus rien à faire ici.',
    startAgainText: 'Recommencez sur votre appareil.',
  },
  es: {
    title: 'Iniciar sesión',
    heading: 'Inicia sesión en {organization}',
    signingInAs:
      'Estás iniciando sesión en {application} como {email}. Comprueba que esta frase coincide con la que te mostró la aplicación:',
    twoWays: '¿Lo pediste en este dispositivo? Continúa aquí. ¿En otro, como tu ordenador? Inicia sesión allí desde aquí.',
    continueHere: 'Continuar aquí',
    signInElsewhere: 'Iniciar sesión en el dispositivo donde lo pediste',
    nothingHappens: 'Si no intentaste iniciar sesión, cierra esta página. No pasa nada hasta que pulses un botón.',
    stopped: { used: 'Este enlace ya se usó', expired: 'Este enlace ha caducado', locked: 'Este inicio de sesión se detuvo' },
    stoppedText: 'Los enlaces funcionan una sola vez y durante poco tiempo. Vuelve a {application} para pedir uno nuevo.',
    stoppedTextLocked:
      'Los enlaces funcionan una sola vez y durante poco tiempo, y se detienen tras demasiados códigos erróneos. Vuelve a {application} para pedir uno nuevo.',
    backTo: 'Volver a {application}',
    startAgainAt: 'Vuelve a {application} para empezar de nuevo.',
    requested: 'Alguien pidió iniciar sesión en {application} como {email}:',
    deviceLabel: 'Dispositivo',
    networkLabel: 'Red',
    timeLabel: 'Hora (UTC)',
    unknown: 'desconocido',
    doNotApprove:
      'Si no acabas de pedir iniciar sesión en una pantalla que tienes delante, no lo apruebes: cierra esta página. Puede que otra persona intente iniciar sesión como tú.',
    numberLabel: 'El número de la pantalla donde lo pediste',
    numberHint: 'Esa pantalla muestra un número de dos cifras. Escríbelo aquí para iniciar sesión en ese dispositivo.',
    approve: 'Aprobar',
    approvedHeading: 'Aprobado: vuelve al otro dispositivo',
    approvedText: 'El otro dispositivo inicia sesión solo. Puedes cerrar esta página.',
    wrongNumberHeading: 'Ese número no coincidía',
    wrongNumberText:
      'Nadie inició sesión, y este inicio de sesión ya no se puede aprobar desde otro dispositivo. En el dispositivo donde lo pediste, abre allí el enlace de este correo o escribe su código.',
    approvalEndedHeading: 'Este inicio de sesión ya no se puede aprobar desde aquí',
    usedText: 'No queda nada por hacer aquí.',
    startAgainText: 'Empieza de nuevo en tu dispositivo.',
  },
};
