/**
 * What a clinician wants to know before starting (issue 17), below the landing page's spec texts:
 * the steps, the documents to have at hand, and how their data is protected. The sections (their
 * number too, Documents included; issue 28) and the document types come from the domain (never
 * retyped); the registry brings zod and the section schemas, so this part is a lazy chunk loaded
 * after the landing page's first paint (decision 016).
 *
 * The protection statements are what this product does: SSN encrypted at rest with AES-256-GCM
 * (decision 005, server/security/field-cipher.ts); a provider reads only their own application and
 * administrators read all (spec §6, server/security/authorization-matrix.ts); administrators sign in
 * with a second factor and providers may add one (issue 16); a session ends after a period of
 * inactivity (SESSION_IDLE_MINUTES, server/env.ts) and at the latest some hours after sign-in.
 */
import { Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  acceptedDocumentExtensions,
  documentTypeLabel,
  documentTypes,
  MAX_DOCUMENT_BYTES,
} from '../../../domain/sections/document-files.ts';
import {
  ADDITIONAL_SECTIONS_TITLE,
  catalogSections,
  sectionCatalog,
  sectionsOfGroup,
} from '../../../domain/sections/section-catalog.ts';

/** The section where documents are uploaded, by its catalog title. */
const documentsTitle = sectionCatalog.documents.title;
const documentsToHave = documentTypes
  .filter((type) => type !== 'other')
  .map((type) => documentTypeLabel[type]);
const fileTypes = [...new Set(acceptedDocumentExtensions.map((extension) => extension.toUpperCase()))].join(
  ', ',
);
const maxMegabytes = MAX_DOCUMENT_BYTES / (1024 * 1024);
/** The titles of one dashboard card's sections (issue 31: the spec's eleven, then the additional five). */
const titlesOf = (group: 'application' | 'additional') =>
  sectionsOfGroup(group)
    .map((section) => section.title)
    .join(', ');

/** The three panels: steps, documents, protection. */
export default function LandingDetails() {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mt={48} ta="start">
      <Card withBorder padding="lg" component="section" aria-labelledby="landing-steps">
        <Stack gap="sm">
          <Title order={2} size="h4" id="landing-steps">
            How it works
          </Title>
          <List type="ordered" spacing="xs">
            <List.Item>Sign up with your name, email address and a password.</List.Item>
            <List.Item>Confirm your email address with the link we send you.</List.Item>
            <List.Item>
              Complete the {catalogSections.length} sections of your application, in any order, saving as you
              go: {titlesOf('application')}; and under {ADDITIONAL_SECTIONS_TITLE}: {titlesOf('additional')}.
            </List.Item>
            <List.Item>
              In {documentsTitle}, upload your supporting documents ({fileTypes}; up to {maxMegabytes} MB
              each).
            </List.Item>
            <List.Item>When every section is complete, notify the credentialing team.</List.Item>
          </List>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="landing-documents">
        <Stack gap="sm">
          <Title order={2} size="h4" id="landing-documents">
            Documents to have at hand
          </Title>
          <List spacing="xs">
            {documentsToHave.map((label) => (
              <List.Item key={label}>{label}</List.Item>
            ))}
          </List>
          <Text size="sm" c="dimmed">
            Scans or photos are fine. Have your NPI, DEA, CAQH ID, Medicaid and Medicare numbers ready too.
          </Text>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="landing-protection">
        <Stack gap="sm">
          <Title order={2} size="h4" id="landing-protection">
            How your data is protected
          </Title>
          <List spacing="xs">
            <List.Item>Your Social Security number is encrypted before it is stored.</List.Item>
            <List.Item>
              Only you and the credentialing team&apos;s administrators can see your application and
              documents.
            </List.Item>
            <List.Item>
              Administrators sign in with a second factor; you can add one to your own account too.
            </List.Item>
            <List.Item>You are signed out automatically after a period of inactivity.</List.Item>
          </List>
        </Stack>
      </Card>
    </SimpleGrid>
  );
}
