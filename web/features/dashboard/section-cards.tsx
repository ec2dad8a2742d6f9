/**
 * The dashboard's eleven section cards (spec §2, §4): each links to its screen and shows whether the
 * section is complete. In a draft pre-filled from the previous application (issue 29 item 6), a
 * copied section not confirmed yet shows a 'Review and Confirm' badge instead: it counts towards
 * progress once the provider confirms (or saves) it.
 */
import { Badge, Card, Group, SimpleGrid, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router';
import { catalogSections, sectionPath } from '../../../domain/sections/section-catalog.ts';
import { REVIEW_AND_CONFIRM } from '../../../domain/sections/section-confirmation.ts';
import { badgeColor } from '../../theme.ts';
import type { Application } from './applications-api.ts';

/** What a card shows about its section. */
type CardState = 'complete' | 'unconfirmed' | 'incomplete';

const stateLabel: Record<CardState, string> = {
  complete: ' (complete)',
  unconfirmed: ` (copied: ${REVIEW_AND_CONFIRM})`,
  incomplete: '',
};

function StateMark({ state, sectionKey }: { state: CardState; sectionKey: string }) {
  if (state === 'complete') {
    return (
      <ThemeIcon
        color="green.9"
        variant="transparent"
        aria-hidden="true"
        data-testid={`complete-${sectionKey}`}
      >
        <IconCircleCheck />
      </ThemeIcon>
    );
  }
  if (state === 'unconfirmed') {
    return (
      <Badge
        color={badgeColor.blue}
        autoContrast
        variant="filled"
        aria-hidden="true"
        data-testid={`unconfirmed-${sectionKey}`}
      >
        {REVIEW_AND_CONFIRM}
      </Badge>
    );
  }
  return (
    <ThemeIcon color="gray.6" variant="transparent" aria-hidden="true">
      <IconCircleDashed />
    </ThemeIcon>
  );
}

export function SectionsCard({ application }: { application: Application }) {
  const complete = new Set(application.completeSections);
  const unconfirmed = new Set(
    application.applicationStatus === 'draft' ? application.unconfirmedSections : [],
  );
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="sections-title">
      <Title order={2} size="h3" id="sections-title" mb={unconfirmed.size > 0 ? 'xs' : 'md'}>
        Application Sections
      </Title>
      {unconfirmed.size > 0 && (
        <Text size="sm" mb="md">
          {unconfirmed.size} copied section{unconfirmed.size === 1 ? '' : 's'} to check: open each one marked
          '{REVIEW_AND_CONFIRM}'. A copied section counts towards progress once you confirm or save it.
        </Text>
      )}
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {catalogSections.map((section) => {
          const state: CardState = complete.has(section.key)
            ? 'complete'
            : unconfirmed.has(section.key)
              ? 'unconfirmed'
              : 'incomplete';
          return (
            <li key={section.key}>
              <UnstyledButton
                component={Link}
                to={sectionPath(section, application.id)}
                w="100%"
                h="100%"
                aria-label={`${section.title}: ${section.description}${stateLabel[state]}`}
              >
                <Card withBorder padding="md" h="100%">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <div>
                      <Text fw={600}>{section.title}</Text>
                      <Text size="sm" c="dimmed">
                        {section.description}
                      </Text>
                    </div>
                    <StateMark state={state} sectionKey={section.key} />
                  </Group>
                </Card>
              </UnstyledButton>
            </li>
          );
        })}
      </SimpleGrid>
    </Card>
  );
}
