import { Button, Center, Stack, Text, Title } from '@mantine/core';

/** Last-resort screen for an error thrown while rendering a route. */
export function RouteError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : 'Unknown error';
  return (
    <Center component="main" mih="100vh" p="md">
      <title>Something went wrong · Edgebook</title>
      <Stack align="center" gap="sm">
        <Title order={1}>Something went wrong</Title>
        <Text c="dimmed">{detail}</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
