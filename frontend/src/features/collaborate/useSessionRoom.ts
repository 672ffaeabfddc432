import type { ChatMessage, Stem } from '@stemdeck/proto';
import { skipToken } from '@reduxjs/toolkit/query';
import { COLLABORATION_PADS, PAD_PRESS_HIGHLIGHT_MS, REMOTE_PAD_PULSE_MS, type CollaborationPad } from '@stemdeck/proto/vocabulary';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ensureAudioContext } from '../../audio/audioContext';
import { toaster } from '../../ui/toaster';
import type { LiveServerMessage } from '../live/liveConnection';
import type { LiveChannel } from '../live/useLiveConnection';
import { playCollaborationPad, SessionClock, SessionPlayer } from './audio';
import { initialRoomState, noticeOf, roomReducer, type LiveRoomState, type RoomAction, type RoomNotice } from './liveSession';
import { canPerform } from './participants';
import { STEM_NAMES } from '../mastering/enhanceState';
import { useSessionStemsQuery } from './sessionsApi';

/** Pad hits sent at full velocity, as the seed's pads do. */
export const PAD_VELOCITY = 127;

/**
 * A collaboration notice as a toast. The toaster merges repeats of the same news, so a slider dragged by
 * someone else is one 'Stem Updated' whose words follow the slider, not twenty toasts in a row.
 */
export function notify(notice: RoomNotice): void {
  toaster.create({ title: notice.title, description: notice.description, type: notice.type });
}

/** Error toasts: title 'Error' and the failure in words. */
export const notifyError = (description: string, title = 'Error') => notify({ title, description, type: 'error' });

/** Starts (or wakes) the studio's audio on a click: browsers let a page make sound only after a gesture. */
export function wakeAudio(): void {
  try {
    void ensureAudioContext().resume();
  } catch (error) {
    console.warn('audio could not start', error);
  }
}

function playPad(pad: CollaborationPad, velocity: number): void {
  playCollaborationPad(pad, velocity).catch((error: unknown) => console.warn(`pad ${pad} did not play`, error));
}

type PadLights = Record<CollaborationPad, boolean>;
const noPads = (): PadLights => Object.fromEntries(COLLABORATION_PADS.map((pad) => [pad, false])) as PadLights;

/** Lights that go out by themselves after `ms`: a pad's own press (150 ms) or another person's hit (200 ms). */
function useTimedLights(ms: number) {
  const [lit, setLit] = useState<PadLights>(noPads);
  const timers = useRef(new Map<CollaborationPad, ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach((timer) => clearTimeout(timer)), []);
  const light = useCallback(
    (pad: CollaborationPad) => {
      clearTimeout(timers.current.get(pad));
      setLit((current) => ({ ...current, [pad]: true }));
      timers.current.set(
        pad,
        setTimeout(() => setLit((current) => ({ ...current, [pad]: false })), ms),
      );
    },
    [ms],
  );
  return [lit, light] as const;
}

export interface SessionRoom {
  state: LiveRoomState;
  /** The session being entered (join_session sent, session_joined not yet back). */
  entering: string | null;
  enter(sessionId: string): void;
  /** Leaves the live room (the REST leave is the caller's). */
  leave(): void;
  pressPad(pad: CollaborationPad): void;
  pressed: PadLights;
  pulsing: PadLights;
  /** Hits by others per pad since entering (shown on the pad for tests and screen readers). */
  remoteHits: Record<CollaborationPad, number>;
  mutedUsers: ReadonlySet<string>;
  toggleMute(userId: string): void;
  play(): void;
  pause(): void;
  setStem(stemId: string, change: { volume: number } | { muted: boolean }): void;
  setMasterVolume(volume: number): void;
  /** When this browser's shared playback last started (epoch ms, from the audio clock), null before. */
  startedWallMs: number | null;
  /** The session project's stems (undefined while loading or out of a session). */
  stems: readonly Stem[] | undefined;
  /** Whether the session's stems are loaded for playback here. */
  stemsReady: boolean;
  /** A chat message this page posted (its answer), shown at once. */
  chatPosted(message: ChatMessage): void;
  player: SessionPlayer;
}

/**
 * The live side of a session on this page: the /ws messages into the room's state, toasts for what others
 * do, the pads (pulse and sound), the shared transport through the session audio (clock and player), the mix.
 */
export function useSessionRoom(live: LiveChannel, selfUserId: string | null): SessionRoom {
  // The room's state lives in a ref the /ws listener updates at once (two events in one tick each see the
  // other), mirrored into React state for rendering.
  const room = useRef<LiveRoomState>(initialRoomState);
  const [state, setState] = useState<LiveRoomState>(initialRoomState);
  const dispatch = useCallback((action: RoomAction) => {
    room.current = roomReducer(room.current, action);
    setState(room.current);
  }, []);
  const enteringRef = useRef<string | null>(null);
  const [entering, setEnteringState] = useState<string | null>(null);
  const setEntering = useCallback((id: string | null) => {
    enteringRef.current = id;
    setEnteringState(id);
  }, []);
  const [pressed, lightPressed] = useTimedLights(PAD_PRESS_HIGHLIGHT_MS);
  const [pulsing, lightPulse] = useTimedLights(REMOTE_PAD_PULSE_MS);
  const [remoteHits, setRemoteHits] = useState<Record<CollaborationPad, number>>(() => Object.fromEntries(COLLABORATION_PADS.map((pad) => [pad, 0])) as Record<CollaborationPad, number>);
  const [mutedUsers, setMutedUsers] = useState<ReadonlySet<string>>(new Set());
  const [startedWallMs, setStartedWallMs] = useState<number | null>(null);
  const sessionId = state.current?.sessionId ?? null;
  const { currentData: stems } = useSessionStemsQuery(sessionId ?? skipToken);
  const [stemsReady, setStemsReady] = useState(false);

  const player = useMemo(() => new SessionPlayer(), []);
  const clock = useMemo(() => new SessionClock((ping) => live.send(ping)), [live]);
  useEffect(() => () => player.dispose(), [player]);
  useEffect(() => () => clock.dispose(), [clock]);

  // The listener reads the latest of these without subscribing again.
  const latest = useRef({ selfUserId, stems, mutedUsers });
  latest.current = { selfUserId, stems, mutedUsers };

  useEffect(() => {
    const stemName = (stemId: string) => {
      const stem = latest.current.stems?.find((s) => s.id === stemId);
      return stem ? STEM_NAMES[stem.type] : 'a stem';
    };
    const onMessage = (message: LiveServerMessage) => {
      const { selfUserId: self, mutedUsers: muted } = latest.current;
      const before = room.current;
      const enteringId = enteringRef.current;
      if (message.type === 'pong') {
        clock.onPong(message, performance.now());
        return;
      }
      if (message.type === 'welcome') {
        // A new socket (first or after a reconnect) is in no session: enter again the one this page is in.
        const sessionId = before.current?.sessionId ?? enteringId;
        if (sessionId) live.send({ type: 'join_session', sessionId });
        return;
      }
      if (message.type === 'error') {
        if (message.for === 'join_session' && enteringId) {
          setEntering(null);
          notifyError(`Failed to join session: ${message.message}`);
        } else if (message.for === 'audio_event' && before.current) {
          notifyError(message.message);
        }
        return;
      }
      if (!self) return;
      if (message.type === 'pad_triggered') {
        if (!before.current || message.sessionId !== before.current.sessionId || message.userId === self) return;
        lightPulse(message.pad);
        setRemoteHits((hits) => ({ ...hits, [message.pad]: hits[message.pad] + 1 }));
        if (!muted.has(message.userId)) playPad(message.pad, message.velocity);
        return;
      }
      const notice = noticeOf(before, message, self, stemName);
      if (notice) notify(notice);
      if (message.type === 'session_joined') {
        setEntering(null);
        notify({ title: 'Joined Session', description: `You are in "${message.state.session.name}".`, type: 'success' });
      }
      dispatch({ type: 'message', message, selfUserId: self });
    };
    return live.subscribe(onMessage);
  }, [live, clock, lightPulse, dispatch, setEntering]);

  // The clock runs while in a session (a burst at the start, then a ping every few seconds).
  useEffect(() => {
    if (!sessionId) return;
    clock.start();
    return () => clock.stop();
  }, [sessionId, clock]);

  // The session's stems load once per session; leaving stops and forgets them.
  useEffect(() => {
    if (!sessionId || !stems || stems.length === 0) return;
    let cancelled = false;
    setStemsReady(false);
    player.load(stems).then(
      () => !cancelled && setStemsReady(true),
      (error: unknown) => console.warn('the session stems did not load', error),
    );
    return () => {
      cancelled = true;
    };
  }, [sessionId, stems, player]);
  useEffect(() => {
    if (sessionId) return;
    player.follow({ playing: false, position: 0, at: Date.now() }, clock);
    setStemsReady(false);
    setStartedWallMs(null);
  }, [sessionId, player, clock]);

  const mix = state.current?.mix;
  useEffect(() => {
    if (mix && stemsReady) player.applyMix(mix);
  }, [mix, stemsReady, player]);

  // Everyone follows the shared transport (a late joiner starts mid-song).
  const transport = state.current?.transport;
  useEffect(() => {
    if (transport && stemsReady) player.follow(transport, clock);
  }, [transport, stemsReady, player, clock]);

  useEffect(() => {
    if (!sessionId) return;
    const timer = setInterval(() => setStartedWallMs(player.lastStartWallMs), 200);
    return () => clearInterval(timer);
  }, [sessionId, player]);

  const enter = useCallback(
    (id: string) => {
      setEntering(id);
      if (!live.send({ type: 'join_session', sessionId: id })) {
        setEntering(null);
        notifyError('WebSocket connection is not available', 'Connection Error');
      }
    },
    [live, setEntering],
  );

  const leave = useCallback(() => {
    if (room.current.current) live.send({ type: 'leave_session' });
    setEntering(null);
    dispatch({ type: 'left_locally' });
  }, [live, dispatch, setEntering]);

  const role = state.current?.role;
  const pressPad = useCallback(
    (pad: CollaborationPad) => {
      if (!canPerform(role)) return;
      wakeAudio();
      lightPressed(pad);
      playPad(pad, PAD_VELOCITY);
      live.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad, velocity: PAD_VELOCITY } });
    },
    [live, role, lightPressed],
  );

  const toggleMute = useCallback(
    (userId: string) => {
      const muted = !latest.current.mutedUsers.has(userId);
      setMutedUsers((current) => {
        const next = new Set(current);
        if (muted) next.add(userId);
        else next.delete(userId);
        return next;
      });
      live.send({ type: 'audio_event', eventType: 'participant_mute', eventData: { targetUserId: userId, muted } });
    },
    [live],
  );

  const transportAction = useCallback(
    (action: 'play' | 'pause') => {
      wakeAudio();
      const position = Math.max(0, player.position());
      live.send({ type: 'audio_event', eventType: 'transport', eventData: { action, position } });
    },
    [live, player],
  );

  const setStem = useCallback(
    (stemId: string, change: { volume: number } | { muted: boolean }) => {
      live.send(
        'volume' in change
          ? { type: 'audio_event', eventType: 'stem_update', stemId, eventData: { property: 'volume', value: change.volume } }
          : { type: 'audio_event', eventType: 'stem_update', stemId, eventData: { property: 'muted', value: change.muted } },
      );
    },
    [live],
  );

  return {
    state,
    entering,
    enter,
    leave,
    pressPad,
    pressed,
    pulsing,
    remoteHits,
    mutedUsers,
    toggleMute,
    play: useCallback(() => transportAction('play'), [transportAction]),
    pause: useCallback(() => transportAction('pause'), [transportAction]),
    setStem,
    setMasterVolume: useCallback((volume: number) => player.setMasterVolume(volume), [player]),
    startedWallMs,
    stems,
    stemsReady,
    chatPosted: useCallback((message: ChatMessage) => dispatch({ type: 'chat_posted', message }), [dispatch]),
    player,
  };
}
