/**
 * Session audio for the Collaborate page: the clock shared with the server, the shared playback of the
 * session's project stems, and the collaboration pads' drum sounds. Plain TypeScript, no React. All of it
 * plays on the studio's one AudioContext through the session bus (master volume) into the master bus.
 */
export { SessionClock, type ClockPing, type ClockPong, type SessionClockOptions } from './sessionClock';
export { SessionPlayer, type SessionPlayerDeps, type TransportClock } from './sessionPlayer';
export { playCollaborationPad } from './collaborationPads';
export { DRUM_OF_PAD } from './padVoices';
