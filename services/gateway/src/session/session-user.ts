/** The signed-in user as the browser sees it (GET /api/auth/user). Tokens never leave the server. */
export interface SessionUser {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

/** A login in progress: PKCE verifier, state and nonce bound to this browser's session. */
export interface PendingLogin {
  codeVerifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

declare module 'express-session' {
  interface SessionData {
    user?: SessionUser;
    idToken?: string;
    pendingLogin?: PendingLogin;
  }
}
