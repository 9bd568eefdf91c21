import { useEffect } from 'react';

/** Tabs of one browser share the session cookie; this channel tells the others when one of them holds a session. */
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('sesame-console-session');

/** Says that this browser is signed in (a tab read a signed-in session). */
export function announceSignedIn(): void {
  channel?.postMessage('signed-in');
}

/**
 * Calls `onSignedIn` when another tab reads a signed-in session: the page waiting on a sign-in
 * whose link was opened in another tab goes on at once (its own status answer can come before
 * that tab's callback has set the session cookie).
 */
export function useSignedInElsewhere(onSignedIn: () => void): void {
  useEffect(() => {
    if (!channel) return;
    const listener = () => onSignedIn();
    channel.addEventListener('message', listener);
    return () => channel.removeEventListener('message', listener);
  }, [onSignedIn]);
}
