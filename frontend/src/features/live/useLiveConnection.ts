import { createContext, useContext, useEffect, useMemo } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { LiveConnection, liveUrl, type LiveMessage } from './liveConnection';
import { liveStatusChanged } from './liveSlice';

type Listener = (message: LiveMessage) => void;

/** What screens use: send a message, listen to incoming ones. */
export interface LiveChannel {
  send(message: LiveMessage): boolean;
  subscribe(listener: Listener): () => void;
}

export const LiveChannelContext = createContext<LiveChannel | null>(null);

/** Opens the live connection while the calling screen is mounted and mirrors its status into the store. */
export function useLiveConnection(): LiveChannel {
  const dispatch = useAppDispatch();
  const { connection, listeners } = useMemo(() => {
    const listeners = new Set<Listener>();
    const connection = new LiveConnection({
      url: liveUrl(window.location),
      onStatus: (status) => dispatch(liveStatusChanged(status)),
      onMessage: (message) => {
        // Seed 000 §3 ignores audio_update and stem_update because its server echoed them to the sender.
        // Ours relays stem_update to the user's other sockets only, so it is another tab's change: passed on.
        if (message.type === 'audio_update') return;
        if (listeners.size === 0) console.debug('live message', message);
        for (const listener of listeners) listener(message);
      },
    });
    return { connection, listeners };
  }, [dispatch]);

  useEffect(() => {
    connection.start();
    return () => connection.stop();
  }, [connection]);

  return useMemo(
    () => ({
      send: (message) => connection.send(message),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    }),
    [connection, listeners],
  );
}

export function useLiveChannel(): LiveChannel | null {
  return useContext(LiveChannelContext);
}
