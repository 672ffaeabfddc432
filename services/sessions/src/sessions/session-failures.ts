import { RpcFailure } from '@stemdeck/platform';
export { VIEWERS_CANNOT_PLAY } from '@stemdeck/proto';

/** The words every refusal of the sessions service carries (the gateway passes them on as they are). */
export const SESSION_NOT_FOUND = 'Session not found';
export const PROJECT_NOT_FOUND = 'Project not found';
export const SESSION_FULL = 'Session is full';
export const SESSION_NOT_ACTIVE = 'Session is not active';
export const ONLY_HOST_REMOVES = 'Only the host can remove participants';
export const ONLY_HOST_CHANGES_ROLES = 'Only the host can change roles';
export const HOST_ROLE_FIXED = 'The host\'s role cannot be changed';
export const ONLY_CREATOR_IS_HOST = 'Only the person who created the session is its host';
export const NOT_YOUR_SESSION = 'You can only create sessions as yourself';
export const PARTICIPANT_NOT_FOUND = 'Participant not found';
export const CHAT_TOO_FAST = 'You are sending messages too fast. Wait a few seconds and try again.';
export const STEM_NOT_IN_SESSION = 'That stem is not part of this session\'s project';

export const failure = (status: number, message: string) => new RpcFailure(status, message);
