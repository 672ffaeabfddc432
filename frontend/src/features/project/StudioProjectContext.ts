import { createContext, useContext } from 'react';
import type { StudioProjectController } from './studioProject';

export const StudioProjectContext = createContext<StudioProjectController | null>(null);

export function useStudioProject(): StudioProjectController {
  const controller = useContext(StudioProjectContext);
  if (!controller) throw new Error('useStudioProject outside the studio screen');
  return controller;
}
