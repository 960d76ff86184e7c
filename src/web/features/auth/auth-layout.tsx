import { Anchor, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo';
import classes from './auth.module.css';

interface AuthLayoutProps {
  /** The page's h1 and document title. */
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <Center component="main" className={classes.page}>
      <title>{`${title} · Edgebook`}</title>
      <Box w="100%" maw={420}>
        <Stack gap="lg">
          <Center>
            <Anchor component={Link} to="/intro" underline="never" aria-label="Edgebook home">
              <Logo size={34} />
            </Anchor>
          </Center>
          <Paper withBorder shadow="md" p={{ base: 'lg', sm: 'xl' }} radius="lg" className={classes.card}>
            <Stack gap="md">
              <Stack gap={4}>
                <Title order={1} size="h2">
                  {title}
                </Title>
                {subtitle && (
                  <Text c="dimmed" size="sm">
                    {subtitle}
                  </Text>
                )}
              </Stack>
              {children}
            </Stack>
          </Paper>
          {footer}
        </Stack>
      </Box>
    </Center>
  );
}
