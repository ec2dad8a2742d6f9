/**
 * The section navigator of the app shell (issue 17): the eleven sections of one application in the
 * registry's order (spec §2 dashboard order), each with its completion mark, the current one marked
 * `aria-current="page"`. The marks come from the dashboard's own applications query (the
 * application's `completeSections` as the API computes them): one query and one cache, refreshed by
 * the sections' saves, no second copy of the progress rule.
 */
import { Loader, NavLink, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  catalogSections,
  type CatalogSectionKey as SectionKey,
  sectionPath,
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
 * The list of the eleven sections, under the label 'Application Sections'; an unknown application (not in
 * the caller's list) shows no marks. The caller wraps it in its `nav` landmark.
 */
export function SectionNavigator({ applicationId, currentKey, onNavigate }: SectionNavigatorProps) {
  const { data: applications, isPending } = useApplications();
  const application = applications?.find((a) => a.id === applicationId);
  const complete = new Set<string>(application?.completeSections ?? []);
  return (
    <Stack gap={4}>
      <Text fw={700} size="sm" px="sm" py={4}>
        Application Sections {isPending && <Loader size="xs" aria-label="Loading progress" />}
      </Text>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {catalogSections.map((section) => {
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
    </Stack>
  );
}
