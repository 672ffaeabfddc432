/**
 * Session audio for the Collaborate page: the clock shared with the server, the shared playback of the
 * session's project stems, and the collaboration pads' drum sounds. Plain TypeScript, no React.
 */
export { SessionClock, type ClockPing, type ClockPong, type SessionClockOptions } from './sessionClock';
export { SessionPlayer } from './sessionPlayer';
export { playCollaborationPad } from './collaborationPads';
