import { Card, Heading, Text } from '@chakra-ui/react';
import type { LucideIcon } from 'lucide-react';

/**
 * A card with an icon, a title and a line of text (landing features, studio-home equipment). Its title is
 * a level-2 heading: the cards sit right under the page's h1, and headings must not skip a level.
 */
export function IconCard({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Icon color="var(--chakra-colors-purple-400)" />
        <Heading size="md" as="h2">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {text}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
