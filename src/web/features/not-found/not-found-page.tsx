import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

// Any address the app does not know: a page saying so, with a way home.
export function NotFoundPage() {
  return (
    <Center component="main" mih="100vh" p="md">
      <title>Page not found · Edgebook</title>
      <Stack align="center" gap="md" ta="center">
        <Text fz={64} fw={800} lh={1} aria-hidden="true">
          404
        </Text>
        <Title order={1} size="h2">
          Oops! Page not found
        </Title>
        <Anchor component={Link} to="/" fw={600} data-testid="not-found-home-link">
          Return to Dashboard
        </Anchor>
      </Stack>
    </Center>
  );
}
