import { Anchor, Box, Button, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, useComputedColorScheme } from '@mantine/core';
import { IconBrain, IconCalendarStats, IconFileImport, IconMathFunction, IconNotebook, IconServer } from '@tabler/icons-react';
import { useEffect, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { markIntroSeen } from '../../lib/storage-keys';
import classes from './intro.module.css';

interface Feature {
  title: string;
  description: string;
  icon: ReactNode;
}

const FEATURES: Feature[] = [
  {
    title: 'Self-hosted',
    description:
      'One command runs Edgebook on your own machine with an embedded PostgreSQL database, or point it at your ' +
      'own PostgreSQL server. Your trades stay in your database.',
    icon: <IconServer size={22} aria-hidden="true" />,
  },
  {
    title: 'Exact P&L',
    description: 'Money is stored as exact decimals, never floating point, so daily, weekly and monthly totals add up to the cent.',
    icon: <IconMathFunction size={22} aria-hidden="true" />,
  },
  {
    title: 'Imports',
    description: 'Bring in CSV and JSON exports from your trading platform, or log trades by hand with sessions, setups, tags and notes.',
    icon: <IconFileImport size={22} aria-hidden="true" />,
  },
  {
    title: 'P&L calendar and stats',
    description: 'See profit and loss by day, week and month, with win rate, profit factor and a score of your trading.',
    icon: <IconCalendarStats size={22} aria-hidden="true" />,
  },
  {
    title: 'Reflections and notebook',
    description: 'Review each day, week or month, mark whether you followed your rules, and keep notes and a daily journal.',
    icon: <IconNotebook size={22} aria-hidden="true" />,
  },
  {
    title: 'AI analyst',
    description: 'Ask questions about your own trades through any OpenAI-compatible provider you configure. The key stays on your server.',
    icon: <IconBrain size={22} aria-hidden="true" />,
  },
];

/** Real screenshots of the app, made by scripts/record-tutorials.ts from a demo journal, in both themes. */
const SCREENSHOTS = [
  { name: 'dashboard', title: 'Dashboard', alt: 'The Edgebook dashboard: P&L calendar, win rates, score and trading tasks' },
  { name: 'trade-log', title: 'Trade Log', alt: 'The Edgebook Trade Log: trades with statistics and analysis by week and weekday' },
  { name: 'reflect', title: 'Reflect', alt: 'Edgebook Trade Reflections: a month of trades with rule adherence, period stats and insights' },
  { name: 'reflect-ai', title: 'ReflectAI', alt: 'ReflectAI: an answer about trading sessions with its chart and the trades it was computed from' },
] as const;

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function scrollToId(event: MouseEvent<HTMLAnchorElement>, id: string) {
  event.preventDefault();
  const behavior: ScrollBehavior = prefersReducedMotion() ? 'auto' : 'smooth';
  const target = document.getElementById(id);
  if (!target) return;
  target.scrollIntoView({ behavior, block: 'start' });
  target.focus({ preventScroll: true });
}

export function IntroPage() {
  const location = useLocation();
  const scheme = useComputedColorScheme('dark');

  useEffect(() => {
    markIntroSeen();
  }, []);

  return (
    <div className={classes.page}>
      <title>Edgebook · Self-hosted trading journal</title>
      <header className={classes.header}>
        <Container size="lg" className={classes.headerInner}>
          <Anchor href="#top" onClick={(e) => scrollToId(e, 'top')} underline="never" aria-label="Edgebook, back to top">
            <Logo size={28} />
          </Anchor>
          <Group component="nav" aria-label="Main" gap="md" wrap="wrap" className={classes.nav}>
            <Anchor href="#top" onClick={(e) => scrollToId(e, 'top')} className={classes.navLink}>
              Home
            </Anchor>
            <Anchor href="#features" onClick={(e) => scrollToId(e, 'features')} className={classes.navLink}>
              Features
            </Anchor>
            <Anchor component={Link} to="/login" state={location.state} className={classes.navLink}>
              Sign In
            </Anchor>
            <Button component={Link} to="/register" state={location.state} size="sm">
              Sign Up
            </Button>
          </Group>
        </Container>
      </header>

      <main>
        <section id="top" tabIndex={-1} className={classes.hero} aria-labelledby="intro-title">
          <Container size="md">
            <Stack align="center" gap="lg" ta="center">
              <Text className={classes.eyebrow}>Self-hosted trading journal</Text>
              <Title order={1} id="intro-title" className={classes.title}>
                Find your edge in your own numbers
              </Title>
              <Text size="lg" maw={620} className={classes.lead}>
                Edgebook is a trading journal you run yourself. Log and import your trades, see your profit and loss on a calendar, reflect on every
                session, and ask an AI analyst about your own results.
              </Text>
              <Group justify="center" gap="sm">
                <Button component={Link} to="/register" state={location.state} size="lg" data-testid="intro-get-started">
                  Get Started
                </Button>
                <Button component={Link} to="/login" state={location.state} size="lg" variant="default">
                  Sign In
                </Button>
              </Group>
            </Stack>
          </Container>
        </section>

        <section id="features" tabIndex={-1} className={classes.features} aria-labelledby="features-title">
          <Container size="lg">
            <Stack gap="xl">
              <Stack gap="xs" ta="center" align="center">
                <Title order={2} id="features-title">
                  Features
                </Title>
                <Text maw={560} className={classes.lead}>
                  Everything a journal needs, with your data on a server you control.
                </Text>
              </Stack>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
                {FEATURES.map((feature) => (
                  <Box key={feature.title} className={classes.feature}>
                    <ThemeIcon size={44} radius="md" variant="light" aria-hidden="true">
                      {feature.icon}
                    </ThemeIcon>
                    <Title order={3} size="h4" mt="md">
                      {feature.title}
                    </Title>
                    <Text size="sm" mt={6} className={classes.lead}>
                      {feature.description}
                    </Text>
                  </Box>
                ))}
              </SimpleGrid>
            </Stack>
          </Container>
        </section>

        <section className={classes.screens} aria-labelledby="screens-title">
          <Container size="lg">
            <Stack gap="xl">
              <Stack gap="xs" ta="center" align="center">
                <Title order={2} id="screens-title">
                  See it
                </Title>
                <Text maw={560} className={classes.lead}>
                  The dashboard, the Trade Log, Reflect and ReflectAI of a demo journal, as they look in this version.
                </Text>
              </Stack>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {SCREENSHOTS.map((shot) => (
                  <Box component="figure" key={shot.name} m={0} className={classes.screen}>
                    <img
                      src={`/intro/${shot.name}-${scheme}.webp`}
                      alt={shot.alt}
                      width={1200}
                      height={750}
                      loading="lazy"
                      className={classes.screenImage}
                      data-testid={`intro-screenshot-${shot.name}`}
                    />
                    <Text component="figcaption" size="sm" fw={600} mt="xs" ta="center">
                      {shot.title}
                    </Text>
                  </Box>
                ))}
              </SimpleGrid>
            </Stack>
          </Container>
        </section>

        <section className={classes.cta} aria-labelledby="cta-title">
          <Container size="sm">
            <Stack align="center" gap="md" ta="center">
              <Title order={2} id="cta-title">
                Start your journal today
              </Title>
              <Text className={classes.lead}>Create an account on this Edgebook server. It takes a minute.</Text>
              <Button component={Link} to="/register" state={location.state} size="lg">
                Get Started
              </Button>
            </Stack>
          </Container>
        </section>
      </main>

      <footer className={classes.footer}>
        <Container size="lg">
          <Text size="sm" ta="center" className={classes.lead}>
            Edgebook · Version 1.0.2 · a self-hostable trading journal
          </Text>
        </Container>
      </footer>
    </div>
  );
}
