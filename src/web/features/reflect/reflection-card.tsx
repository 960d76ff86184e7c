import { Anchor, Badge, Button, CloseButton, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconCircleX, IconExternalLink } from '@tabler/icons-react';
import { memo } from 'react';
import { Link } from 'react-router';
import { formatUsd } from '../../../domain/money';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { cycleRuleAdherence, removeReflectionTag, type Reflection } from '../../../domain/reflections';
import classes from './reflect.module.css';

// Filled badges with white text: the 9th shades keep AA contrast in both themes.
const RESULT_COLOR = { Win: 'teal.9', Loss: 'red.9', BE: 'gray.7' } as const;

/** Rule adherence cycles followed, not followed, unset; each state says what it is and what a click does. */
const ADHERENCE = {
  followed: { label: 'Followed rules', tone: TONE_COLOR.positive, icon: IconCircleCheck },
  broken: { label: 'Broke rules', tone: TONE_COLOR.negative, icon: IconCircleX },
  unset: { label: 'Rules not rated', tone: undefined, icon: IconCircleDashed },
} as const;

function adherenceOf(value: boolean | null) {
  return value === true ? ADHERENCE.followed : value === false ? ADHERENCE.broken : ADHERENCE.unset;
}

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

export interface ReflectionCardProps {
  reflection: Reflection;
  /** Without it the card is read only (a mentor's view): no tag to remove, the rating shown, no link to the trade's page. */
  onChange?: (change: { tradeId: string; followed_rules?: boolean | null; tags?: string[] }) => void;
}

/** One trade on the Reflect page. */
export const ReflectionCard = memo(function ReflectionCard({ reflection: r, onChange }: ReflectionCardProps) {
  const adherence = adherenceOf(r.followedRules);
  const next = adherenceOf(cycleRuleAdherence(r.followedRules));
  const Icon = adherence.icon;
  const state = r.followedRules === null ? 'unset' : r.followedRules ? 'followed' : 'broken';
  return (
    <Paper withBorder radius="md" p="sm" className={classes.card} data-testid="reflection-card" data-trade-id={r.tradeId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} miw={0}>
          <Group gap={6} wrap="wrap">
            <Text fw={700} data-testid="reflection-symbol">
              {r.symbol}
            </Text>
            {r.side && (
              <Badge variant="light" color="gray" size="sm" data-testid="reflection-side">
                {r.side}
              </Badge>
            )}
            {r.type && (
              <Badge variant="light" color="indigo" size="sm">
                {r.type}
              </Badge>
            )}
            <Badge variant="outline" color="gray" size="sm">
              {r.session}
            </Badge>
            <Badge variant="filled" color={RESULT_COLOR[r.result]} size="sm" data-testid="reflection-result">
              {r.result}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {r.day} · {r.week}
          </Text>
        </Stack>
        <Text fw={700} c={pnlColor(r.pnlCents)} data-testid="reflection-pnl" className={classes.pnl}>
          {formatUsd(r.pnlCents)}
        </Text>
      </Group>

      <Text
        size="sm"
        mt="xs"
        className={classes.description}
        c={r.description === 'No description provided' ? 'dimmed' : undefined}
        data-testid="reflection-description"
      >
        {r.description}
      </Text>

      {r.imageUrl && (
        <Anchor href={r.imageUrl} target="_blank" rel="noopener noreferrer" aria-label={`Open the chart of ${r.symbol} on ${r.date}`}>
          <Image src={r.imageUrl} alt={`Chart of ${r.symbol} on ${r.date}`} mah={180} fit="contain" radius="sm" mt="xs" />
        </Anchor>
      )}

      <Group justify="space-between" align="center" mt="sm" gap="xs" wrap="wrap">
        <Group gap={6} wrap="wrap" data-testid="reflection-tags">
          {r.tags.map((tag) => (
            <Badge
              key={tag}
              variant="default"
              size="lg"
              radius="xl"
              tt="none"
              fw={500}
              pr={onChange ? 3 : undefined}
              rightSection={
                onChange && (
                  <CloseButton
                    size="xs"
                    radius="xl"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => onChange({ tradeId: r.tradeId, tags: removeReflectionTag(r.tags, tag) })}
                  />
                )
              }
              data-testid="reflection-tag"
            >
              {tag}
            </Badge>
          ))}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {r.link && isWebLink(r.link) && (
            <Anchor href={r.link} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={2} wrap="nowrap">
                Link <IconExternalLink size={14} aria-hidden="true" />
              </Group>
            </Anchor>
          )}
          {onChange ? (
            <>
              <Anchor component={Link} to={`/trade/${r.tradeId}`} size="sm">
                Details
              </Anchor>
              <Button
                size="compact-sm"
                variant="default"
                c={adherence.tone}
                leftSection={<Icon size={16} aria-hidden="true" />}
                onClick={() => onChange({ tradeId: r.tradeId, followed_rules: cycleRuleAdherence(r.followedRules) })}
                aria-label={`${adherence.label}. Change to ${next.label.toLowerCase()}`}
                data-testid="rule-adherence"
                data-state={state}
              >
                {adherence.label}
              </Button>
            </>
          ) : (
            <Group gap={4} wrap="nowrap" data-testid="rule-adherence" data-state={state}>
              <Icon size={16} aria-hidden="true" color={adherence.tone ?? 'currentColor'} />
              <Text size="sm" c={adherence.tone}>
                {adherence.label}
              </Text>
            </Group>
          )}
        </Group>
      </Group>
    </Paper>
  );
});
