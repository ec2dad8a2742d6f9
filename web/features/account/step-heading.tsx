/** A set-up step's heading, which takes the focus when the step appears (screen readers read it). */
import { Text, Title, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef } from 'react';

/** `step` of `of` above the title (an h2); focused on mount unless `focusOnMount` is false. */
export function StepHeading({
  step,
  of,
  title,
  focusOnMount = true,
}: {
  step: number;
  of: number;
  title: string;
  focusOnMount?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);
  return (
    <div>
      <Text size="sm" c="dimmed" aria-hidden="true">
        Step {step} of {of}
      </Text>
      <Title order={2} size="h3" ref={heading} tabIndex={-1} style={{ outlineOffset: 4 }}>
        <VisuallyHidden component="span">{`Step ${step} of ${of}: `}</VisuallyHidden>
        {title}
      </Title>
    </div>
  );
}
