/**
 * The 'Users & Applications' tab (spec §2 /admin "Per-user card"): one card per user with name, email,
 * joined date, the current application's status badge (or 'No Application'), the document count, a
 * 'View Details' button and the document downloads; paged on the server.
 */
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { Link, useLocation } from 'react-router';
import { fromAdminState } from '../../app/admin-tabs.ts';
import { reviewPath } from '../../app/paths.ts';
import { CredentialBadge } from '../../components/credential-badge.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ListPager } from '../../components/list-pager.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDate } from '../../format.ts';
import { badgeColor } from '../../theme.ts';
import type { PageInfo, ProviderCard } from './admin-api.ts';
import { DocumentDownloadButton } from './document-download-button.tsx';

function ProviderCardView({
  provider,
  onView,
}: {
  provider: ProviderCard;
  onView: (userId: string) => void;
}) {
  const nameId = useId();
  const location = useLocation();
  const more = provider.documentCount - provider.documents.length;
  return (
    <Card withBorder padding="md" component="li">
      <Stack gap="xs">
        {/* Issue 17: a long name or email wraps; the badges keep their size and drop below the name
            when the card is too narrow for both (never 'Administr...'). */}
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div style={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
            <Text fw={600} id={nameId}>
              {provider.firstName} {provider.lastName}
            </Text>
            <Text size="sm">{provider.email}</Text>
            <Text size="sm" c="dimmed">
              Joined {formatDate(provider.joinedAt)}
            </Text>
          </div>
          {/* At most the card's width: three badges (a match, the credential, the status) wrap onto a
              second line on a phone instead of running off the screen. */}
          <Group gap={6} justify="flex-end" style={{ flexShrink: 0, maxWidth: '100%' }}>
            {provider.role === 'admin' && (
              <Badge color="red.9" variant="filled">
                Administrator
              </Badge>
            )}
            {provider.currentApplication?.exclusionMatch && (
              <Badge color={badgeColor.red} variant="filled">
                {provider.currentApplication.exclusionMatch === 'match'
                  ? 'Exclusion match'
                  : 'Possible exclusion match'}
              </Badge>
            )}
            {/* Issue 29 item 1: the credential beside the cycle in progress, each with its own badge. */}
            {provider.credential.state !== 'none' && <CredentialBadge credential={provider.credential} />}
            {provider.currentApplication ? (
              <StatusBadge status={provider.currentApplication.applicationStatus} />
            ) : (
              <Badge color={badgeColor.gray} variant="filled">
                No Application
              </Badge>
            )}
          </Group>
        </Group>
        {provider.currentApplication?.submittedAt && (
          <Text size="sm">Completed {formatDate(provider.currentApplication.submittedAt)}</Text>
        )}
        <Text size="sm">
          {provider.documentCount === 1 ? '1 document' : `${provider.documentCount} documents`}
          {provider.applicationCount > 1 ? ` · ${provider.applicationCount} applications` : ''}
        </Text>
        {provider.documents.length > 0 && (
          <Group gap={6}>
            {provider.documents.map((d) => (
              <DocumentDownloadButton key={d.id} documentId={d.id} documentName={d.documentName} maw="100%" />
            ))}
            {more > 0 && (
              <Text size="xs" c="dimmed">
                and {more} more in the details
              </Text>
            )}
          </Group>
        )}
        <Group>
          <Button
            variant="filled"
            size="xs"
            onClick={() => onView(provider.userId)}
            aria-describedby={nameId}
          >
            View Details
          </Button>
          {provider.currentApplication?.submittedAt && (
            <Button
              component={Link}
              to={reviewPath(provider.currentApplication.id)}
              state={fromAdminState(location)}
              variant="default"
              size="xs"
              aria-describedby={nameId}
            >
              Open Review
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

export function ProviderList({
  data,
  isFetching,
  onPageChange,
  onView,
}: {
  data: (PageInfo & { providers: ProviderCard[] }) | undefined;
  isFetching: boolean;
  onPageChange: (page: number) => void;
  onView: (userId: string) => void;
}) {
  if (!data) {
    return <InlineLoader />;
  }
  return (
    <Stack aria-busy={isFetching}>
      <ListPager info={data} noun={['user', 'users']} onPageChange={onPageChange} />
      <SimpleGrid
        cols={{ base: 1, md: 2 }}
        component="ul"
        aria-label="Users"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {data.providers.map((provider) => (
          <ProviderCardView key={provider.userId} provider={provider} onView={onView} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
