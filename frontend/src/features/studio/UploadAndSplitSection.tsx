import { useStudioProject } from '../separator/StudioProjectContext';
import { SeparatorPanel } from '../separator/SeparatorPanel';
import { UploadPanel } from '../upload/UploadPanel';

/** "Upload & Split": the upload panel opens what it uploads in the studio's project, above the separator's panel. */
export function UploadAndSplitSection() {
  const project = useStudioProject();
  return <SeparatorPanel upload={<UploadPanel openProject={(opened, job) => project.open(opened, job)} />} />;
}
