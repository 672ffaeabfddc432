import { Download, Layers, Music, Sparkles, Video, type LucideIcon } from 'lucide-react';

export interface StudioSection {
  id: string;
  label: string;
  heading: string;
  subtitle: string;
  icon: LucideIcon;
}

/** The studio screen's five sections, switched in place; separator is the default. */
export const STUDIO_SECTIONS: readonly StudioSection[] = [
  { id: 'separator', label: 'Upload & Split', heading: 'Upload Your Media', subtitle: 'Drop your audio or video file here to begin', icon: Layers },
  { id: 'pads', label: 'Create Music', heading: 'Music Creation Studio', subtitle: 'Create beats, play synths, and perform live', icon: Music },
  { id: 'visuals', label: 'Video & Visuals', heading: 'Visual Generation', subtitle: 'AI-powered video creation and real-time visual sync', icon: Video },
  {
    id: 'mastering',
    label: 'AI Mastering',
    heading: 'AI Mastering',
    subtitle: 'Professional mastering using cloud APIs - offline processing only',
    icon: Sparkles,
  },
  { id: 'export', label: 'Export & Share', heading: 'Export & Share', subtitle: 'Export individual stems, full mix, or share your project', icon: Download },
];

export const DEFAULT_SECTION = 'separator';

export function findSection(id: string): StudioSection | undefined {
  return STUDIO_SECTIONS.find((section) => section.id === id);
}
