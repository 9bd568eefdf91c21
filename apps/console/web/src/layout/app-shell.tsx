import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { onSessionEnded } from '../api/client';
import { rememberReturnTo } from '../api/return-to';
import { sessionQuery } from '../api/session';
import { FreshSignInDialog } from '../pages/sign-in/fresh-sign-in-dialog';
import { setTheme, storedTheme, subscribeToSystemTheme, systemTheme } from './theme';

/** The frame of every page: skip link, brand, theme switch; a lost session sends the person to sign in and back. */
export function AppShell() {
  useSendToSignInWhenSessionEnds();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="/console/">
          Sesame <span className="muted">console</span>
        </a>
        <ThemeSwitch />
      </header>
      <Outlet />
      <FreshSignInDialog />
    </>
  );
}

/** Names the theme it switches to: the other one than what shows now (the stored choice, else the system's). */
function ThemeSwitch() {
  const system = useSyncExternalStore(subscribeToSystemTheme, systemTheme);
  const [stored, setStored] = useState(storedTheme);
  const next = (stored ?? system) === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="button button-small"
      onClick={() => {
        setTheme(next);
        setStored(next);
      }}
    >
      {next === 'dark' ? 'Dark theme' : 'Light theme'}
    </button>
  );
}

function useSendToSignInWhenSessionEnds(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnded(() => {
        rememberReturnTo(location.pathname + location.search);
        queryClient.removeQueries();
        void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
        navigate('/sign-in?session=ended', { replace: true });
      }),
    [navigate, location, queryClient],
  );
}
