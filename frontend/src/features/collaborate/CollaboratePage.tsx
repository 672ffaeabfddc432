import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /collaborate, signed-in only. Real-time sessions arrive with the collaboration work. */
export function CollaboratePage() {
  return (
    <PlaceholderPage
      title="Collaborate"
      text="Real-time sessions with participants, roles and chat are being built and will appear here."
      back={{ to: '/app', label: 'Studio' }}
    />
  );
}
