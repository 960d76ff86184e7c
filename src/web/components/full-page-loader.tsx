import { Center, Loader } from '@mantine/core';

/** Shown while the session loads (a spinner while authentication loads). */
export function FullPageLoader() {
  return (
    <Center h="100vh" component="main" data-testid="auth-loading">
      <title>Edgebook</title>
      <Loader aria-label="Loading" role="status" />
    </Center>
  );
}
