/**
 * The 'Exclusions' tab of /admin (issue 15): the OIG List of Excluded Individuals/Entities the review
 * screens against, when it was imported and how many rows it has, and 'Import LEIE File' to replace
 * it with a new full file (UPDATED.csv from the OIG), with upload progress. After an import every
 * application under review is screened again; the result is on each review page's 'Exclusion
 * screening' item.
 */
import { Button, Card, FileButton, Progress, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useImportLeie, useLeieStatus } from './admin-api.ts';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const number = new Intl.NumberFormat('en-US');

export function ExclusionsTab({ enabled }: { enabled: boolean }) {
  const status = useLeieStatus(enabled);
  const importer = useImportLeie();
  const [percent, setPercent] = useState<number | null>(null);

  const upload = (file: File | null) => {
    if (!file) return;
    setPercent(0);
    importer.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: (result) =>
          notifySuccess(
            'LEIE Imported',
            `${number.format(result.rowCount)} exclusions from ${result.fileName}; ${result.rescreened} applications under review and ${result.approvedScreened} approved screened again${
              result.newMatches > 0
                ? `; ${result.newMatches} approved newly match (flagged on their cards)`
                : ''
            }.`,
          ),
        onError: (error) => notifyError('LEIE Not Imported', error.message),
        onSettled: () => setPercent(null),
      },
    );
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="leie-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="leie-title">
          OIG List of Excluded Individuals/Entities
        </Title>
        {status.isPending ? (
          <InlineLoader size="sm" label="Loading the exclusion list..." />
        ) : status.isError ? (
          <Text>The exclusion list could not be loaded. Reload the page to try again.</Text>
        ) : status.data.importedAt ? (
          <Text>
            {number.format(status.data.rowCount ?? 0)} exclusions from {status.data.fileName}, imported{' '}
            {dateTime.format(new Date(status.data.importedAt))}. Review pages screen against this list.
          </Text>
        ) : (
          <Text>
            No list imported yet: the 'Exclusion screening' items stay for the reviewers to check by hand.
          </Text>
        )}
        <Text size="sm" c="dimmed">
          Download the LEIE full file (UPDATED.csv) from the OIG each month and import it here. The new list
          replaces the old one; a file that is not the LEIE is refused and the old list stays.
        </Text>
        <div>
          <FileButton onChange={upload} accept=".csv,text/csv">
            {(props) => (
              <Button
                {...props}
                leftSection={<IconUpload size={16} aria-hidden="true" />}
                loading={importer.isPending}
              >
                Import LEIE File
              </Button>
            )}
          </FileButton>
        </div>
        {percent !== null && (
          <Stack gap={4}>
            <Text size="sm" id="leie-progress">
              {percent < 100 ? `Uploading... ${percent}%` : 'Importing and screening...'}
            </Text>
            <Progress.Root>
              <Progress.Section value={percent} aria-labelledby="leie-progress" />
            </Progress.Root>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
