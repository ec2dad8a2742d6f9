/**
 * Shown instead of a section's form (and the documents screen's upload) when the URL's application id
 * is unknown or belongs to someone else: the server answers 404 for both and never says which
 * (issue 17 "Dead ends"). Reloading cannot help, so the way out is 'Back to Dashboard'.
 */
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';

export function ApplicationNotFound() {
  const navigate = useNavigate();
  return (
    <Paper withBorder p="lg" role="alert" aria-labelledby="application-not-found-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="application-not-found-title">
          Application not found
        </Title>
        <Text>
          This link does not lead to one of your applications. Open your application from the dashboard.
        </Text>
        <Button variant="default" onClick={() => navigate('/dashboard')}>
          Back to Dashboard
        </Button>
      </Stack>
    </Paper>
  );
}
