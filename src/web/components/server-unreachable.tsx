import { Button, Center, Stack, Text, Title } from '@mantine/core';

/** Shown when the session cannot be loaded because the server does not answer. */
export function ServerUnreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <Center component="main" mih="100vh" p="md">
      <title>Connection problem · Edgebook</title>
      <Stack align="center" gap="sm" ta="center" maw={420}>
        <Title order={1} size="h3">
          Cannot reach the Edgebook server
        </Title>
        <Text c="dimmed" size="sm">
          Check that the server is running and your connection works, then try again.
        </Text>
        <Button onClick={onRetry} data-testid="session-retry">
          Retry
        </Button>
      </Stack>
    </Center>
  );
}
