import { Anchor, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { Trade } from '../../shared/api';
import { formatMoney } from '../../../domain/money';
import { pnlCentsOf, pnlColor, tradeCurrency } from './format';

// Filled in shades dark enough for white words (AA), as the Reflect page's: the light teal badge read 4.3:1.
const RESULT_COLOR = { Win: 'teal.9', Loss: 'red.9', BE: 'gray.7' } as const;

export function ResultBadge({ result, size = 'sm' }: { result: Trade['status']; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge color={RESULT_COLOR[result] ?? 'gray.7'} variant="filled" size={size} tt="none" w="fit-content" data-testid="trade-result">
      {result}
    </Badge>
  );
}

export function PnlText({
  trade,
  size = 'sm',
}: {
  trade: Pick<Trade, 'pnl' | 'commission'> & { contract?: string | null };
  size?: 'sm' | 'md' | 'lg';
}) {
  const cents = pnlCentsOf(trade);
  return (
    <Text size={size} fw={600} c={pnlColor(cents)} ff="monospace" data-testid="trade-pnl" data-money style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(cents, tradeCurrency(trade))}
    </Text>
  );
}

/** 2 tags visible in the table, 3 in cards, then '+N'. */
export function TagList({ tags, max }: { tags: readonly string[]; max: number }) {
  if (tags.length === 0)
    return (
      <Text c="dimmed" size="sm">
        —
      </Text>
    );
  const hidden = tags.slice(max);
  return (
    <Group gap={4} wrap="nowrap" w="max-content" data-testid="trade-tags">
      {tags.slice(0, max).map((tag) => (
        <Badge key={tag} variant="outline" size="sm" radius="sm" tt="none" maw={110} style={{ flexShrink: 0 }}>
          {tag}
        </Badge>
      ))}
      {hidden.length > 0 && (
        <Tooltip label={hidden.join(', ')} withinPortal>
          <Badge variant="default" size="sm" radius="sm" tt="none" style={{ flexShrink: 0 }}>
            +{hidden.length}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

export function LinkCell({ link }: { link: string }) {
  if (!link)
    return (
      <Text c="dimmed" size="sm">
        —
      </Text>
    );
  const safe = /^https?:\/\//i.test(link) ? link : `https://${link}`;
  return (
    <Anchor href={safe} target="_blank" rel="noopener noreferrer" size="sm" aria-label="Open trade link" title={link}>
      <IconExternalLink size={16} aria-hidden="true" />
    </Anchor>
  );
}
