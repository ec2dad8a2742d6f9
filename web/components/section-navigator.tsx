/**
 * The section navigator of the app shell (issue 17): every section of one application in the
 * registry's order (spec §2 dashboard order), in the dashboard's two groups, 'Application Sections'
 * (the eleven of spec §2) and 'Additional Information' (issue 31), each with its completion mark, the current one marked
 * `aria-current="page"`. The marks come from the dashboard's own applications query (the
 * application's `completeSections` as the API computes them): one query and one cache, refreshed by
 * the sections' saves, no second copy of the progress rule.
 */
import { Divider, Loader, NavLink, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  ADDITIONAL_SECTIONS_TITLE,
  type CatalogSection,
  type CatalogSectionKey as SectionKey,
  sectionPath,
  sectionsOfGroup,
} from '../../domain/sections/section-catalog.ts';
import { useApplications } from '../features/dashboard/applications-api.ts';

export interface SectionNavigatorProps {
  /** The application whose sections are listed (the route's `:applicationId`). */
  applicationId: string;
  /** The section screen shown now. */
  currentKey: SectionKey;
  /** Called when a section is chosen (the phone menu closes itself). */
  onNavigate?: () => void;
}

/**
 * The list of the sections: the eleven under the label 'Application Sections', then the five under
 * 'Additional Information'; an unknown application (not in the caller's list) shows no marks. The
 * caller wraps it in its `nav` landmark.
 */
export function SectionNavigator({ applicationId, currentKey, onNavigate }: SectionNavigatorProps) {
  const { data: applications, isPending } = useApplications();
  const application = applications?.find((a) => a.id === applicationId);
  const complete = new Set<string>(application?.completeSections ?? []);
  const links = { applicationId, currentKey, onNavigate, complete };
  return (
    <Stack gap={4}>
      <Text fw={700} size="sm" px="sm" py={4} id="nav-application-sections">
        Application Sections {isPending && <Loader size="xs" aria-label="Loading progress" />}
      </Text>
      <SectionLinks
        sections={sectionsOfGroup('application')}
        labelledBy="nav-application-sections"
        {...links}
      />
      <Divider my={4} />
      <Text fw={700} size="sm" px="sm" py={4} id="nav-additional-sections">
        {ADDITIONAL_SECTIONS_TITLE}
      </Text>
      <SectionLinks
        sections={sectionsOfGroup('additional')}
        labelledBy="nav-additional-sections"
        {...links}
      />
    </Stack>
  );
}

/** One group's links, each with its completion mark. */
function SectionLinks({
  sections,
  labelledBy,
  applicationId,
  currentKey,
  onNavigate,
  complete,
}: SectionNavigatorProps & {
  sections: readonly CatalogSection[];
  labelledBy: string;
  complete: ReadonlySet<string>;
}) {
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-labelledby={labelledBy}>
      {sections.map((section) => {
        const done = complete.has(section.key);
        const current = section.key === currentKey;
        return (
          <li key={section.key}>
            <NavLink
              component={Link}
              to={sectionPath(section, applicationId)}
              onClick={onNavigate}
              active={current}
              aria-current={current ? 'page' : undefined}
              label={section.title}
              variant="filled"
              data-testid={`nav-${section.key}`}
              rightSection={
                done ? (
                  <ThemeIcon color={current ? 'white' : 'green.9'} variant="transparent" size="sm">
                    <IconCircleCheck aria-hidden="true" />
                    <VisuallyHidden>(complete)</VisuallyHidden>
                  </ThemeIcon>
                ) : (
                  <ThemeIcon
                    color={current ? 'white' : 'gray.6'}
                    variant="transparent"
                    size="sm"
                    aria-hidden="true"
                  >
                    <IconCircleDashed />
                  </ThemeIcon>
                )
              }
            />
          </li>
        );
      })}
    </ul>
  );
}
