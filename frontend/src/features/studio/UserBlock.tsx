import { Avatar, Box, HStack, Menu, Portal, Text } from '@chakra-ui/react';
import { ChevronsUpDown, LogOut } from 'lucide-react';
import { avatarFallback, displayName, type User } from '../auth/user';

export function UserBlock({ user }: { user: User }) {
  return (
    <Menu.Root positioning={{ placement: 'top-start' }}>
      <Menu.Trigger asChild>
        <HStack as="button" w="full" p="2" borderRadius="md" _hover={{ bg: 'bg.muted' }} textAlign="left" data-testid="user-block">
          <Avatar.Root size="sm" colorPalette="purple">
            <Avatar.Fallback>{avatarFallback(user)}</Avatar.Fallback>
            {user.profileImageUrl && <Avatar.Image src={user.profileImageUrl} alt="" />}
          </Avatar.Root>
          <Box flex="1" minW="0">
            <Text fontSize="sm" fontWeight="medium" truncate data-testid="user-display-name">
              {displayName(user)}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              Pro Account
            </Text>
          </Box>
          <ChevronsUpDown size={14} />
        </HStack>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="sign-out" asChild>
              <a href="/api/logout">
                <LogOut size={14} /> Sign Out
              </a>
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
