/**
 * `/admin/applications/:applicationId` (issue 13, docs/decisions/018-review-workflow.md): an
 * application's review page for administrators.
 */
import { Container, Title } from '@mantine/core';
import type { Me } from '../../app/session.ts';

export default function ReviewPage(_props: { me: Me }) {
  return (
    <Container size="xl" py="md">
      <Title order={1} size="h3">
        Application Review
      </Title>
    </Container>
  );
}
