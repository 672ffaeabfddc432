import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /music, open to everyone. The instruments arrive with the music-creation work. */
export function MusicPage() {
  return (
    <PlaceholderPage
      title="Music Studio"
      text="The drum machine, synthesizer and demo songs are being built and will appear here."
      back={{ to: '/', label: 'Home' }}
    />
  );
}
