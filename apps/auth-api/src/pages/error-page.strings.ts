import type { Locale } from './locales';

type Message = { title: string; text: string };

/** What an error page says, by problem code; `failed` and `refused` when no code has words of its own. */
export interface ErrorPageStrings {
  messages: Record<'unknown_login_link' | 'invalid_client' | 'invalid_redirect_uri' | 'rate_limited', Message>;
  failed: Message;
  refused: { title: string };
}

export const ERROR_PAGE_STRINGS: Record<Locale, ErrorPageStrings> = {
  en: {
    messages: {
      unknown_login_link: {
        title: 'This link is not valid',
        text: 'The sign-in link is incomplete or was never issued. Open the link from your most recent e-mail, or start signing in again.',
      },
      invalid_client: { title: 'Unknown application', text: 'The application that sent you here is not registered. Contact its support.' },
      invalid_redirect_uri: {
        title: 'This sign-in request cannot continue',
        text: 'The application asked to send you to an address it has not registered. Contact its support.',
      },
      rate_limited: { title: 'Too many requests', text: 'Please wait a moment and try again.' },
    },
    failed: { title: 'Something went wrong', text: 'Please try again in a moment.' },
    refused: { title: 'This request cannot be completed' },
  },
  de: {
    messages: {
      unknown_login_link: {
        title: 'Dieser Link ist ungültig',
        text: 'Der Anmeldelink ist unvollständig oder wurde nie ausgestellt. Öffnen Sie den Link aus Ihrer neuesten E-Mail oder melden Sie sich erneut an.',
      },
      invalid_client: {
        title: 'Unbekannte Anwendung',
        text: 'Die Anwendung, die Sie hierher geschickt hat, ist nicht registriert. Wenden Sie sich an ihren Support.',
      },
      invalid_redirect_uri: {
        title: 'Diese Anmeldung kann nicht fortgesetzt werden',
        text: 'Die Anwendung wollte Sie an eine Adresse senden, die sie nicht registriert hat. Wenden Sie sich an ihren Support.',
      },
      rate_limited: { title: 'Zu viele Anfragen', text: 'Bitte warten Sie einen Moment und versuchen Sie es erneut.' },
    },
    failed: { title: 'Etwas ist schiefgelaufen', text: 'Bitte versuchen Sie es gleich noch einmal.' },
    refused: { title: 'Diese Anfrage kann nicht ausgeführt werden' },
  },
  fr: {
    messages: {
      unknown_login_link: {
        title: 'Ce lien n’est pas valide',
        text: 'Le lien de connexion est incomplet ou n’a jamais été émis. Ouvrez le lien de votre e-mail le plus récent, ou recommencez la connexion.',
      },
      invalid_client: {
        title: 'Application inconnue',
        text: 'L’application qui vous a envoyé ici n’est pas enregistrée. Contactez son support.',
      },
      invalid_redirect_uri: {
        title: 'Cette demande de connexion ne peut pas continuer',
        text: 'L’application a demandé à vous envoyer vers une adresse qu’elle n’a pas enregistrée. Contactez son support.',
      },
      rate_limited: { title: 'Trop de requêtes', text: 'Patientez un instant et réessayez.' },
    },
    failed: { title: 'Un problème est survenu', text: 'Réessayez dans un instant.' },
    refused: { title: 'Cette requête ne peut pas aboutir' },
  },
  es: {
    messages: {
      unknown_login_link: {
        title: 'Este enlace no es válido',
        text: 'El enlace está incompleto o nunca se emitió. Abre el enlace de tu correo más reciente o vuelve a iniciar sesión.',
      },
      invalid_client: {
        title: 'Aplicación desconocida',
        text: 'La aplicación que te envió aquí no está registrada. Contacta con su soporte.',
      },
      invalid_redirect_uri: {
        title: 'Este inicio de sesión no puede continuar',
        text: 'La aplicación quiso enviarte a una dirección que no ha registrado. Contacta con su soporte.',
      },
      rate_limited: { title: 'Demasiadas solicitudes', text: 'Espera un momento y vuelve a intentarlo.' },
    },
    failed: { title: 'Algo salió mal', text: 'Vuelve a intentarlo en un momento.' },
    refused: { title: 'Esta solicitud no se puede completar' },
  },
};
