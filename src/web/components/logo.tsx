import { Group, Text } from '@mantine/core';

/** The Edgebook mark and name. The mark is decorative; the name carries the meaning. */
export function Logo({ size = 28, withName = true }: { size?: number; withName?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap" component="span">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="var(--mantine-color-indigo-7)" />
        <path d="M8 22l6-7 4 4 6-9" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {withName && (
        <Text component="span" fw={800} fz={size * 0.68} lh={1} c="var(--mantine-color-text)">
          Edgebook
        </Text>
      )}
    </Group>
  );
}
