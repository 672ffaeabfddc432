import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Route, Routes, useLocation, useParams } from 'react-router';
import { useGetCurrentUserQuery } from '../api/api';
import { LandingPage } from '../features/landing/LandingPage';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { OSC_BRIDGE_HELP_PATH, OscBridgeHelpPage } from '../features/pads/OscBridgeHelpPage';
import { SharedProjectPage } from '../features/share/SharedProjectPage';
import { StudioHomePage } from '../features/studio-home/StudioHomePage';
import { StudioScreen } from '../features/studio/StudioScreen';
import { LoadingScreen } from '../ui/LoadingScreen';

/** The visualizer's output window: its own chunk (the renderers), no sign-in (it shows only what the studio tab streams to it). */
const OutputPage = lazy(() => import('../features/visuals/output/OutputPage').then((m) => ({ default: m.OutputPage })));

/** /music brings the instruments (Tone.js): its own chunk, loaded when visited. */
const MusicPage = lazy(() => import('../features/music/MusicPage').then((m) => ({ default: m.MusicPage })));

/** /collaborate brings the session player and the pads' drum voices (Tone.js): its own chunk, loaded when visited. */
const CollaboratePage = lazy(() => import('../features/collaborate/CollaboratePage').then((m) => ({ default: m.CollaboratePage })));

/** Auth state: loading, then signed in when the current-user call returns a user. */
export function useAuth() {
  const { data, isLoading, isError } = useGetCurrentUserQuery();
  return { user: data ?? null, isLoading, isSignedIn: Boolean(data) && !isError };
}

/** Sends signed-out visitors to sign in, returning them to the page they asked for. */
function SignInRedirect() {
  const location = useLocation();
  useEffect(() => {
    window.location.assign(`/api/login?returnTo=${encodeURIComponent(location.pathname + location.search)}`);
  }, [location]);
  return <LoadingScreen />;
}

function SignedInOnly({ children }: { children: ReactNode }) {
  const { isLoading, isSignedIn } = useAuth();
  if (isLoading) return <LoadingScreen />;
  return isSignedIn ? children : <SignInRedirect />;
}

function Home() {
  const { isLoading, isSignedIn } = useAuth();
  if (isLoading) return <LandingPage authLoading signedIn={false} />;
  return isSignedIn ? <StudioHomePage signedIn /> : <LandingPage authLoading={false} signedIn={false} />;
}

function Studio() {
  const { isLoading, isSignedIn } = useAuth();
  if (isLoading) return <LoadingScreen />;
  return isSignedIn ? <StudioScreen /> : <StudioHomePage signedIn={false} />;
}

/** A share link's page, for anyone who has the link. */
function SharedLink() {
  const { token = '' } = useParams();
  return <SharedProjectPage token={token} />;
}

/**
 * The routes: the landing page, the studio (/app, /create, /studio), /music open to everyone, the OSC bridge
 * help, collaboration, a shared project's public player (/s/:token, signed out too), the visualizer's output
 * window (/output, no sign-in: it draws what the studio tab of the same browser streams to it), and not found.
 */
export function App() {
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/app" element={<SignedInOnly><StudioScreen /></SignedInOnly>} />
      <Route path="/create" element={<SignedInOnly><StudioScreen /></SignedInOnly>} />
      <Route path="/studio" element={<Studio />} />
      <Route
        path="/music"
        element={
          <Suspense fallback={<LoadingScreen />}>
            <MusicPage />
          </Suspense>
        }
      />
      <Route
        path="/output"
        element={
          <Suspense fallback={null}>
            <OutputPage />
          </Suspense>
        }
      />
      <Route path={OSC_BRIDGE_HELP_PATH} element={<OscBridgeHelpPage />} />
      <Route
        path="/collaborate"
        element={
          <SignedInOnly>
            <Suspense fallback={<LoadingScreen />}>
              <CollaboratePage />
            </Suspense>
          </SignedInOnly>
        }
      />
      <Route path="/s/:token" element={<SharedLink />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
