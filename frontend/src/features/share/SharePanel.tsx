import { Badge, Button, Card, HStack, Input, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { Copy, Link2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { toaster } from '../../ui/toaster';
import { failureDescription } from '../export/exportState';
import { useCreateShareLinkMutation, useListShareLinksQuery, useRevokeShareLinkMutation, type ShareLinkRecord } from './shareApi';
import { absoluteUrl, EXPIRY_CHOICES, expiryDays, linkDate, newestFirst, STATUS_NAMES, STATUS_PALETTE, type ExpiryChoice } from './shareState';
import { LabelledSelect } from '../../ui/LabelledSelect';

/**
 * "Share": a read-only player page anyone with the link can open, signed out. The link's address is shown
 * once, when it is made (the server keeps only a hash of it); the list shows every link and revokes them.
 */
export function SharePanel() {
  const project = useAppSelector((state) => state.project.project);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [created, setCreated] = useState<{ projectId: string; url: string } | null>(null);
  const [createLink, { isLoading: creating }] = useCreateShareLinkMutation();
  const { currentData: links, isError: listFailed } = useListShareLinksQuery(project?.id ?? skipToken, { refetchOnMountOrArgChange: true });

  // A new link's address belongs to the project it was made for.
  useEffect(() => setCreated((shown) => (shown && shown.projectId === project?.id ? shown : null)), [project?.id]);

  const create = async () => {
    if (!project) return;
    try {
      const link = await createLink({ projectId: project.id, expiresInDays: expiryDays(expiry) }).unwrap();
      setCreated({ projectId: project.id, url: absoluteUrl(link.url, window.location.origin) });
      toaster.create({ title: 'Share link created', type: 'success' });
    } catch (error) {
      toaster.create({ title: 'Sharing failed', description: failureDescription('The share link could not be created', error), type: 'error' });
    }
  };

  return (
    <Card.Root data-testid="share-panel">
      <Card.Body>
        <Stack gap="4">
          <Text fontWeight="semibold" fontSize="lg">
            Share
          </Text>
          <Text fontSize="sm" color="fg.muted">
            Anyone with the link can listen to this project's mix and see its analysis, without an account. They cannot change anything.
          </Text>
          <HStack gap="4" wrap="wrap" align="flex-end">
            <LabelledSelect
              id="share-expiry"
              label="Link expires"
              value={expiry}
              onChange={setExpiry}
              options={EXPIRY_CHOICES.map((choice) => ({ value: choice.id, label: choice.label }))}
            />
            <Button colorPalette="purple" disabled={!project || creating} onClick={() => void create()} data-testid="create-share-link">
              <Link2 />
              {creating ? 'Creating...' : 'Create Share Link'}
            </Button>
          </HStack>
          {created && created.projectId === project?.id && <NewLink url={created.url} />}
          {project && <LinkList links={links} failed={listFailed} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** The new link's address, shown this once, with Copy. */
function NewLink({ url }: { url: string }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toaster.create({ title: 'Copied', description: 'Share link copied to clipboard', type: 'success' });
    } catch {
      // No clipboard permission: the address is selected so Ctrl+C copies it.
      input.current?.select();
      toaster.create({ title: 'Copy the link yourself', description: 'It is selected: press Ctrl+C (⌘C on a Mac)', type: 'info' });
    }
  };
  return (
    <Stack gap="2" p="3" borderWidth="1px" rounded="md" data-testid="new-share-link">
      <label htmlFor="share-url">
        <Text fontSize="sm" fontWeight="medium">
          Your share link
        </Text>
      </label>
      <HStack gap="2">
        <Input id="share-url" ref={input} readOnly value={url} fontFamily="mono" fontSize="sm" onFocus={(event) => event.currentTarget.select()} data-testid="share-url" />
        <Button variant="outline" onClick={() => void copy()} data-testid="copy-share-link">
          <Copy /> Copy
        </Button>
      </HStack>
      <Text fontSize="xs" color="fg.muted" data-testid="share-url-note">
        This link is shown only once. Copy it now: it cannot be shown again, but you can make a new one at any time.
      </Text>
    </Stack>
  );
}

function LinkList({ links, failed }: { links: ShareLinkRecord[] | undefined; failed: boolean }) {
  const [revoke, { isLoading: revoking, originalArgs: revokingId }] = useRevokeShareLinkMutation();
  const revokeLink = async (id: string) => {
    try {
      await revoke(id).unwrap();
      toaster.create({ title: 'Link revoked', description: 'It no longer opens the project', type: 'success' });
    } catch (error) {
      toaster.create({ title: 'Revoke failed', description: failureDescription('The link could not be revoked', error), type: 'error' });
    }
  };
  if (failed) return <Text color="fg.error">The project's links could not be read.</Text>;
  if (!links) return null;
  if (links.length === 0)
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="share-links-empty">
        No share links yet
      </Text>
    );
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" data-testid="share-links">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Created</Table.ColumnHeader>
            <Table.ColumnHeader>Expires</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {newestFirst(links).map((link) => (
            <Table.Row key={link.id} data-testid="share-link" data-status={link.status}>
              <Table.Cell>{linkDate(link.createdAt)}</Table.Cell>
              <Table.Cell>{linkDate(link.expiresAt)}</Table.Cell>
              <Table.Cell>
                <HStack gap="2" wrap="wrap">
                  <Badge colorPalette={STATUS_PALETTE[link.status]}>{STATUS_NAMES[link.status]}</Badge>
                  {link.status === 'revoked' && link.revokedAt && (
                    <Text fontSize="xs" color="fg.muted">
                      {linkDate(link.revokedAt)}
                    </Text>
                  )}
                </HStack>
              </Table.Cell>
              <Table.Cell textAlign="end">
                {link.status === 'active' && (
                  <Button size="xs" variant="outline" colorPalette="red" loading={revoking && revokingId === link.id} onClick={() => void revokeLink(link.id)} data-testid="revoke-share-link">
                    Revoke
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
