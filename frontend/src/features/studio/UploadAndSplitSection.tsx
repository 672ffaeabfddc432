import { useStudioProject } from '../project/StudioProjectContext';
import { ProjectPanel } from '../project/ProjectPanel';
import { UploadPanel } from '../upload/UploadPanel';

/** "Upload & Split": the upload panel opens what it uploads in the studio's project, above the project panel. */
export function UploadAndSplitSection() {
  const project = useStudioProject();
  return <ProjectPanel upload={<UploadPanel openProject={(opened, job) => project.open(opened, job)} />} />;
}
