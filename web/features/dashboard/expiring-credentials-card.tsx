/**
 * 'Expiring Credentials' on the dashboard (issue 14): shown only when the application holds a
 * credential that expires within 90 days or has expired (GET
 * /api/applications/:applicationId/expiring-credentials). Each item names its section, what it is,
 * its date and the days left ('Expired' past the date), coloured by urgency, and links to the
 * section screen where it is renewed. Issue 29 item 4: on the approved application whose credential
 * is current, a dated item has 'Update Credential', opening its section in update mode (`?update=1`,
 * editable, with 'Submit Update'); no item leads to a read-only dead end. The card lists dated
 * section rows only (domain `credentialKindSection`), never a document: a renewed file is uploaded
 * from the section screen's update notice, which links to Documents in update mode.
 */
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ExpiringCredentials } from '../../../domain/api/credentials.ts';
import {
  credentialUpdateTexts,
  isCredentialUpdateSection,
} from '../../../domain/credentials/credential-updates.ts';
import { daysLeftText } from '../../../domain/credentials/expiring-credentials.ts';
import {
  type CatalogSectionKey,
  sectionCatalog,
  sectionPath,
} from '../../../domain/sections/section-catalog.ts';
import { api } from '../../api.ts';
import { credentialUpdateHref, useCredentialUpdate } from '../../app/credential-update.ts';
import { expiringCredentialsRead, takeEarlyRead } from '../../early-reads.ts';
import { formatDate } from '../../format.ts';
import { expiryUrgencyColor } from '../../theme.ts';

export function ExpiringCredentialsCard({
  applicationId,
  approved = false,
}: {
  applicationId: string;
  /** The application is approved: its dated items may take a credential update. */
  approved?: boolean;
}) {
  const update = useCredentialUpdate(applicationId, approved);
  const updatable = update.data?.allowed === true;
  const query = useQuery({
    queryKey: ['applications', applicationId, 'expiring-credentials'],
    // web/early.ts starts it once the applications answered, before the app has loaded.
    queryFn: () => {
      const path = expiringCredentialsRead(applicationId);
      return takeEarlyRead<ExpiringCredentials>(path) ?? api<ExpiringCredentials>('GET', path);
    },
  });
  const credentials = query.data?.credentials ?? [];
  if (credentials.length === 0) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="expiring-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="expiring-title">
          Expiring Credentials
        </Title>
        <Text size="sm">Renew these, then update them in your application.</Text>
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {credentials.map((credential) => {
            const section = sectionCatalog[credential.sectionKey as CatalogSectionKey];
            return (
              <Group
                component="li"
                key={`${credential.kind}-${credential.rowId}`}
                justify="space-between"
                wrap="wrap"
                gap="xs"
              >
                <div>
                  <Anchor
                    component={Link}
                    to={sectionPath(section, applicationId)}
                    fw={600}
                    c="gray.9"
                    underline="always"
                  >
                    {section.title}
                  </Anchor>
                  <Text size="sm">
                    {credential.name}: {credential.daysLeft < 0 ? 'expired' : 'expires'}{' '}
                    {formatDate(credential.expiresOn)}
                  </Text>
                </div>
                <Group gap="xs" wrap="wrap">
                  <Badge color={expiryUrgencyColor[credential.urgency]} variant="filled">
                    {daysLeftText(credential.daysLeft)}
                  </Badge>
                  {updatable && isCredentialUpdateSection(credential.sectionKey) && (
                    <Button
                      component={Link}
                      to={credentialUpdateHref(sectionPath(section, applicationId))}
                      size="xs"
                      aria-label={`${credentialUpdateTexts.updateCredential}: ${credential.name}`}
                    >
                      {credentialUpdateTexts.updateCredential}
                    </Button>
                  )}
                </Group>
              </Group>
            );
          })}
        </Stack>
      </Stack>
    </Card>
  );
}
