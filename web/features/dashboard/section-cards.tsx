/**
 * The dashboard's section cards (spec §2, §4): each links to its screen and shows whether the section
 * is complete. Two groups, each its own card of the same design (issue 31 item 3): 'Application
 * Sections', the eleven of spec §2 exactly as the spec gives them, then 'Additional Information', the
 * five sections of issue 31 (section-catalog.ts `sectionsOfGroup`). Progress counts both.
 * In a draft pre-filled from the previous application (issue 29 item 6), a copied section not
 * confirmed yet shows a 'Review and Confirm' badge instead: it counts towards progress once the
 * provider confirms (or saves) it. While its work history has a gap to explain (issue 29 item 7), the
 * Work History card shows 'Gap to explain' instead of the green check (issue 51 item 6): it counts
 * towards progress (spec §4: it has rows) but is not done, and completion is refused until then.
 */
import { Badge, Card, Group, SimpleGrid, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  ADDITIONAL_SECTIONS_TITLE,
  type CatalogSection,
  type SectionGroup,
  sectionPath,
  sectionsOfGroup,
} from '../../../domain/sections/section-catalog.ts';
import { REVIEW_AND_CONFIRM } from '../../../domain/sections/section-confirmation.ts';
import { GAP_TO_EXPLAIN_LABEL } from '../../../domain/sections/work-history-gaps.ts';
import { badgeColor } from '../../theme.ts';
import type { Application } from './applications-api.ts';

/** What a card shows about its section. */
type CardState = 'complete' | 'unconfirmed' | 'gaps' | 'incomplete';

const stateLabel: Record<CardState, string> = {
  complete: ' (complete)',
  unconfirmed: ` (copied: ${REVIEW_AND_CONFIRM})`,
  gaps: ` (${GAP_TO_EXPLAIN_LABEL.toLowerCase()})`,
  incomplete: '',
};

/** The states shown as a badge: what it says and its color. */
const stateBadge: Partial<Record<CardState, { label: string; color: string }>> = {
  gaps: { label: GAP_TO_EXPLAIN_LABEL, color: badgeColor.orange },
  unconfirmed: { label: REVIEW_AND_CONFIRM, color: badgeColor.blue },
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
  const badge = stateBadge[state];
  if (badge) {
    return (
      <Badge
        color={badge.color}
        autoContrast
        variant="filled"
        aria-hidden="true"
        data-testid={`${state}-${sectionKey}`}
      >
        {badge.label}
      </Badge>
    );
  }
  return (
    <ThemeIcon color="gray.6" variant="transparent" aria-hidden="true">
      <IconCircleDashed />
    </ThemeIcon>
  );
}

/** Each card's title and heading id, by section group. */
const groupCards: Record<SectionGroup, { title: string; titleId: string }> = {
  application: { title: 'Application Sections', titleId: 'sections-title' },
  additional: { title: ADDITIONAL_SECTIONS_TITLE, titleId: 'additional-sections-title' },
};

/** One card of section links (a group of the catalog), with its copied sections still to check. */
function SectionGroupCard({
  application,
  group,
  sections,
  gapsToExplain,
}: {
  application: Application;
  group: SectionGroup;
  sections: readonly CatalogSection[];
  gapsToExplain: number;
}) {
  const { title, titleId } = groupCards[group];
  const complete = new Set<string>(application.completeSections);
  const copied = new Set<string>(
    application.applicationStatus === 'draft' ? application.unconfirmedSections : [],
  );
  const unconfirmed = sections.filter((section) => copied.has(section.key));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId} mb={unconfirmed.length > 0 ? 'xs' : 'md'}>
        {title}
      </Title>
      {unconfirmed.length > 0 && (
        <Text size="sm" mb="md">
          {unconfirmed.length} copied section{unconfirmed.length === 1 ? '' : 's'} to check: open each one
          marked '{REVIEW_AND_CONFIRM}'. A copied section counts towards progress once you confirm or save it.
        </Text>
      )}
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {sections.map((section) => {
          const state: CardState = complete.has(section.key)
            ? section.key === 'workHistory' && gapsToExplain > 0
              ? 'gaps'
              : 'complete'
            : copied.has(section.key)
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

/**
 * The dashboard's two cards of sections: 'Application Sections' (spec §2), then 'Additional
 * Information'. `gapsToExplain`: the application's work-history gaps without an explanation
 * (GET /api/applications `workHistoryGaps`, issue 51 item 6).
 */
export function SectionsCard({
  application,
  gapsToExplain,
}: {
  application: Application;
  gapsToExplain: number;
}) {
  return (
    <>
      <SectionGroupCard
        application={application}
        group="application"
        sections={sectionsOfGroup('application')}
        gapsToExplain={gapsToExplain}
      />
      <SectionGroupCard
        application={application}
        group="additional"
        sections={sectionsOfGroup('additional')}
        gapsToExplain={gapsToExplain}
      />
    </>
  );
}
