import { Locale } from '../pages/locales';

export interface PasskeyStrings {
  or: string;
  signIn: string;
  signInFailed: string;
  offerTitle: string;
  offerHeading: string;
  offerBody: string;
  offerRequired: string;
  create: string;
  skip: string;
  createFailed: string;
  created: string;
}

/** The passkey parts of the hosted page. */
export const PASSKEY_STRINGS: Record<Locale, PasskeyStrings> = {
  en: {
    or: 'or',
    signIn: 'Sign in with a passkey',
    signInFailed: 'This passkey cannot sign you in here. Use your e-mail address instead.',
    offerTitle: 'Use a passkey',
    offerHeading: 'Use a passkey next time',
    offerBody:
      'Sign in to {organization} with your fingerprint, face or screen lock instead of waiting for an e-mail. Your passkey stays on your device.',
    offerRequired: '{organization} asks you to create a passkey before you go on.',
    create: 'Create a passkey',
    skip: 'Not now',
    createFailed: 'The passkey was not created. Try again.',
    created: 'Passkey created. Signing you in…',
  },
  de: {
    or: 'oder',
    signIn: 'Mit einem Passkey anmelden',
    signInFailed: 'Mit diesem Passkey können Sie sich hier nicht anmelden. Verwenden Sie Ihre E-Mail-Adresse.',
    offerTitle: 'Passkey verwenden',
    offerHeading: 'Nächstes Mal mit einem Passkey anmelden',
    offerBody:
      'Melden Sie sich bei {organization} mit Fingerabdruck, Gesicht oder Bildschirmsperre an, statt auf eine E-Mail zu warten. Ihr Passkey bleibt auf Ihrem Gerät.',
    offerRequired: '{organization} bittet Sie, einen Passkey zu erstellen, bevor es weitergeht.',
    create: 'Passkey erstellen',
    skip: 'Jetzt nicht',
    createFailed: 'Der Passkey wurde nicht erstellt. Versuchen Sie es erneut.',
    created: 'Passkey erstellt. Sie werden angemeldet …',
  },
  fr: {
    or: 'ou',
    signIn: 'Se connecter avec une clé d’accès',
    signInFailed: 'Cette clé d’accès ne peut pas vous connecter ici. Utilisez votre adresse e-mail.',
    offerTitle: 'Utiliser une clé d’accès',
    offerHeading: 'Utilisez une clé d’accès la prochaine fois',
    offerBody:
      'Connectez-vous à {organization} avec votre empreinte, votre visage ou le verrouillage de l’écran, sans attendre d’e-mail. Votre clé d’accès reste sur votre appareil.',
    offerRequired: '{organization} vous demande de créer une clé d’accès avant de continuer.',
    create: 'Créer une clé d’accès',
    skip: 'Pas maintenant',
    createFailed: 'La clé d’accès n’a pas été créée. Réessayez.',
    created: 'Clé d’accès créée. Connexion…',
  },
  es: {
    or: 'o',
    signIn: 'Iniciar sesión con una llave de acceso',
    signInFailed: 'Esta llave de acceso no puede iniciar tu sesión aquí. Usa tu correo electrónico.',
    offerTitle: 'Usar una llave de acceso',
    offerHeading: 'Usa una llave de acceso la próxima vez',
    offerBody:
      'Inicia sesión en {organization} con tu huella, tu cara o el bloqueo de pantalla, sin esperar un correo. Tu llave de acceso se queda en tu dispositivo.',
    offerRequired: '{organization} te pide crear una llave de acceso antes de continuar.',
    create: 'Crear una llave de acceso',
    skip: 'Ahora no',
    createFailed: 'No se creó la llave de acceso. Inténtalo de nuevo.',
    created: 'Llave de acceso creada. Iniciando sesión…',
  },
};
