import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useAppConfig } from '../../lib/app-config';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { RECORDED_VIDEOS, type TutorialId } from './videos';

interface Tutorial {
  id: TutorialId;
  title: string;
  description: string;
  to: string;
  linkLabel: string;
}

// Three videos (Trades Log, Reflect Page, ReflectAI), each with a description. The videos
// are recorded from this app by scripts/record-tutorials.ts and served by our own server; TUTORIAL_VIDEO_URLS may
// point at hosted copies instead.
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
  },
];

const VIDEO_FRAME = { display: 'block', width: '100%', aspectRatio: '16 / 9', background: 'black' } as const;

function readProgress(): Record<string, boolean> {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.tutorialProgress) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

export function TutorialsPage() {
  const { data: config } = useAppConfig();
  const [watched, setWatched] = useState(readProgress);

  const markWatched = (id: string) => {
    const next = { ...readProgress(), [id]: true };
    window.localStorage.setItem(STORAGE_KEYS.tutorialProgress, JSON.stringify(next));
    setWatched(next);
  };

  return (
    <Stack gap="md">
      <PageHeader title="Tutorials" />
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
        {TUTORIALS.map((tutorial, index) => {
          // Until the server's config says whether hosted copies replace them, no video loads (not the wrong one).
          const hosted = config?.tutorialVideoUrls?.[index];
          // Hosted copies come without captions we could vouch for; the recorded ones carry their own.
          const video = !config ? null : hosted ? { src: hosted, poster: undefined, captions: undefined } : RECORDED_VIDEOS[tutorial.id];
          return (
            <Card
              key={tutorial.id}
              withBorder
              padding="md"
              component="article"
              data-testid={`tutorial-${tutorial.id}`}
              aria-labelledby={`tutorial-${tutorial.id}-title`}
            >
              <Card.Section>
                {video ? (
                  <video
                    controls
                    preload="metadata"
                    playsInline
                    poster={video.poster}
                    src={video.src}
                    aria-label={`${tutorial.title} tutorial video`}
                    onEnded={() => markWatched(tutorial.id)}
                    style={VIDEO_FRAME}
                    data-testid="tutorial-video"
                  >
                    {video.captions && <track kind="captions" src={video.captions} srcLang="en" label="English" default />}
                  </video>
                ) : (
                  <div style={VIDEO_FRAME} aria-hidden="true" />
                )}
              </Card.Section>
              <Stack gap="xs" mt="md">
                <Group justify="space-between" wrap="nowrap">
                  <Title order={2} size="h4" id={`tutorial-${tutorial.id}-title`}>
                    {tutorial.title}
                  </Title>
                  {watched[tutorial.id] && (
                    <Badge color="green" variant="light">
                      Watched
                    </Badge>
                  )}
                </Group>
                <Text size="sm">{tutorial.description}</Text>
                <Anchor component={Link} to={tutorial.to} size="sm" fw={600}>
                  {tutorial.linkLabel}
                </Anchor>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
