import { skipToken } from '@reduxjs/toolkit/query';
import { useRunningExportsQuery } from './exportApi';
import { exportPlace } from './exportState';

/** How often a panel waiting for its file reads where its export stands. */
export const EXPORT_PLACE_POLL_MS = 1000;

/**
 * While a panel's export request waits for its file (the answer comes only once the file is stored), the
 * export's place in the user's line when it waits for their other exports to finish; null otherwise.
 */
export function useExportPlace(projectId: string | null, waiting: boolean): number | null {
  const { currentData } = useRunningExportsQuery(projectId && waiting ? projectId : skipToken, {
    pollingInterval: waiting ? EXPORT_PLACE_POLL_MS : 0,
    skipPollingIfUnfocused: false,
    refetchOnMountOrArgChange: true,
  });
  return waiting ? exportPlace(currentData) : null;
}
