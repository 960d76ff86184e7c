import { Anchor, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrain, IconListDetails, IconNotebook } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';

interface Tutorial {
  id: string;
  title: string;
  description: string;
  to: string;
  linkLabel: string;
  icon: ReactNode;
}

// Spec part 2 "Tutorials": three guides (Trades Log, Reflect Page, ReflectAI), each with a description.
// The original embedded hosted videos; a self-hosted install cannot rely on them, so each guide is written out.
const TUTORIALS: Tutorial[] = [
  {
    id: 'trades-log',
    title: 'Trades Log',
    description:
      'Log every trade with its date, instrument, session, setup type, result, P&L, commission, tags and notes. ' +
      'Group trades under trading accounts, import CSV or JSON exports from your platform, and review win, loss and ' +
      'break-even statistics with charts by week and by day of the week.',
    to: '/trade-log',
    linkLabel: 'Open the Trade Log',
    icon: <IconListDetails size={20} aria-hidden="true" />,
  },
  {
    id: 'reflect-page',
    title: 'Reflect Page',
    description:
      'Review your trades by day, week or month. Mark whether each trade followed your rules, tag what happened, ' +
      'and read the period summary: total trades, win rate, rule adherence and an analysis of your patterns with an ' +
      'action plan.',
    to: '/reflect',
    linkLabel: 'Open Reflect',
    icon: <IconNotebook size={20} aria-hidden="true" />,
  },
  {
    id: 'reflectai',
    title: 'ReflectAI',
    description:
      'Ask the AI trading analyst about your own numbers: your best session, your win rate last week, where you ' +
      'give back profits. Answers are based on your logged trades, and DeepThink mode reasons through harder ' +
      'questions step by step.',
    to: '/reflect-ai',
    linkLabel: 'Open ReflectAI',
    icon: <IconBrain size={20} aria-hidden="true" />,
  },
];

export function TutorialsPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Tutorials" />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {TUTORIALS.map((tutorial) => (
          <Card key={tutorial.id} withBorder padding="lg" component="article" data-testid={`tutorial-${tutorial.id}`}>
            <Stack gap="sm">
              <ThemeIcon size="lg" variant="light" aria-hidden="true">
                {tutorial.icon}
              </ThemeIcon>
              <Title order={2} size="h4">
                {tutorial.title}
              </Title>
              <Text size="sm">{tutorial.description}</Text>
              <Anchor component={Link} to={tutorial.to} size="sm" fw={600}>
                {tutorial.linkLabel}
              </Anchor>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
