import { Card, Heading, Text } from '@chakra-ui/react';
import type { LucideIcon } from 'lucide-react';

/** A card with an icon, a title and a line of text (landing features, studio-home equipment). */
export function IconCard({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Icon color="var(--chakra-colors-purple-400)" />
        <Heading size="md" as="h3">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {text}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
