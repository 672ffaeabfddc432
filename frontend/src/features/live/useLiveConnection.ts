import { createContext, useContext, useEffect, useMemo } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { LiveConnection, liveUrl, type LiveClientMessage, type LiveServerMessage, type StemChange } from './liveConnection';
import { liveStatusChanged } from './liveSlice';

type Listener = (message: LiveServerMessage) => void;

/** What screens use: send a message, listen to incoming (validated, typed) ones. */
export interface LiveChannel {
  send(message: LiveClientMessage): boolean;
  subscribe(listener: Listener): () => void;
  /** This tab's socket id while connected (from `welcome`), else null. */
  connectionId(): string | null;
  /** Saves a mixer change over the socket, settling when it is answered (see LiveConnection.saveStem); null when not connected. */
  saveStem(stemId: string, changes: StemChange): Promise<void> | null;
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
      connectionId: () => connection.connectionId,
      saveStem: (stemId, changes) => connection.saveStem(stemId, changes),
    }),
    [connection, listeners],
  );
}

export function useLiveChannel(): LiveChannel | null {
  return useContext(LiveChannelContext);
}
