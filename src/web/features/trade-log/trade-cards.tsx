import { ActionIcon, Anchor, Card, Checkbox, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPencil, IconTags, IconTrash } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatR } from '../../../domain/risk/format-r';
import { formatTradeLogDay } from '../../../domain/dates';
import { formatTradeType, ownTags } from '../../../domain/trades';
import { TradeExecutionLine } from '../../components/trade-execution';
import type { Trade } from '../../shared/api';
import { accountLabel, tradeName } from './format';
import { LinkCell, PnlText, ResultBadge, TagList } from './trade-cells';
import { renderExcursion } from './trade-columns';
import { useReportVisibleRows, type TradeRowHandlers, type VirtualListProps } from './trade-table';
import classes from './trade-log.module.css';

/** Notes in cards expand above 100 characters. */
const NOTES_PREVIEW = 100;

function CardNotes({ notes }: { notes: string }) {
  const [expanded, setExpanded] = useState(false);
  if (!notes) return null;
  const long = notes.length > NOTES_PREVIEW;
  return (
    <div>
      <Text size="sm" className={classes.cardNotes} data-testid="card-notes">
        {long && !expanded ? `${notes.slice(0, NOTES_PREVIEW).trimEnd()}…` : notes}
      </Text>
      {long && (
        <Anchor component="button" type="button" size="xs" onClick={() => setExpanded((e) => !e)} aria-expanded={expanded}>
          {expanded ? 'Show less' : 'Show more'}
        </Anchor>
      )}
    </div>
  );
}

interface CardContext {
  showAccount: boolean;
  /** The trader's zone: execution times are shown in it. */
  timeZone: string;
  /** Today in that zone: a date of another year shows its year. */
  today: string;
  /** Only the trader's own tags (a choice this browser remembers). */
  hideImportTags: boolean;
  handlers: TradeRowHandlers;
}

export function TradeCard({ trade, showAccount, timeZone, today, hideImportTags, handlers }: CardContext & { trade: Trade }) {
  const { selectMode, selected, onToggleSelect, onEdit, onDelete, onEditTags } = handlers;
  const tags = hideImportTags ? ownTags(trade.tags, trade) : trade.tags;
  return (
    <Card withBorder radius="md" padding="sm" data-testid="trade-card" data-trade-id={trade.id}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            {selectMode && (
              <Checkbox
                checked={selected.has(trade.id)}
                onChange={() => onToggleSelect(trade.id)}
                aria-label={`Select trade ${trade.symbol} ${trade.date}`}
                data-testid="trade-select"
              />
            )}
            <Anchor component={Link} to={`/trade/${trade.id}`} fw={700} truncate data-testid="trade-instrument-cell">
              {trade.symbol}
            </Anchor>
            <ResultBadge result={trade.status} />
          </Group>
          <Stack gap={0} align="flex-end">
            <PnlText trade={trade} size="md" />
            {trade.r_multiple !== null && (
              <Text size="xs" c="dimmed" ff="monospace" data-testid="trade-r" data-money>
                {formatR(trade.r_multiple)}
              </Text>
            )}
          </Stack>
        </Group>
        <Text size="xs" c="dimmed">
          {[
            formatTradeLogDay(trade.date, today),
            trade.day_of_week,
            trade.period,
            trade.side,
            formatTradeType(trade.trade_type),
            showAccount ? accountLabel(trade) : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <TradeExecutionLine trade={trade} timeZone={timeZone} />
        {(trade.mae !== null || trade.mfe !== null) && (
          <Text size="xs" c="dimmed" data-testid="trade-excursions">
            MAE {renderExcursion(trade, 'mae', timeZone)} · MFE {renderExcursion(trade, 'mfe', timeZone)}
          </Text>
        )}
        {trade.mae === null && trade.excursion_missing && (
          <Text size="xs" c="dimmed" data-testid="trade-excursions">
            MAE and MFE {renderExcursion(trade, 'mae', timeZone)}
          </Text>
        )}
        {tags.length > 0 && <TagList tags={tags} max={3} />}
        <CardNotes notes={trade.notes} />
        <Group justify="space-between" gap="xs">
          <LinkCell link={trade.link} />
          <Group gap={4}>
            <ActionIcon variant="subtle" color="gray" onClick={() => onEditTags(trade)} aria-label="Edit tags" data-testid="trade-tags-edit">
              <IconTags size={16} aria-hidden="true" />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => onEdit(trade)}
              aria-label={`Edit trade ${tradeName(trade)}`}
              data-testid="trade-edit"
            >
              <IconPencil size={16} aria-hidden="true" />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onDelete(trade)}
              aria-label={`Delete trade ${tradeName(trade)}`}
              data-testid="trade-delete"
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

interface CardsProps extends CardContext {
  trades: readonly Trade[];
}

export function CompactTradeCards({ trades, ...context }: CardsProps) {
  return (
    <div className={classes.cardGrid} data-testid="trade-cards">
      {trades.map((trade) => (
        <TradeCard key={trade.id} trade={trade} {...context} />
      ))}
    </div>
  );
}

/** Maximized card view: one column of measured cards, virtualized and paged like the table. */
export function VirtualTradeCards({
  showAccount,
  timeZone,
  today,
  hideImportTags,
  handlers,
  ...list
}: Omit<CardsProps, 'trades'> & VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: list.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 150,
    overscan: 6,
    gap: 8,
    getItemKey: (index) => list.rowAt(index)?.id ?? `placeholder-${index}`,
  });
  const items = virtualizer.getVirtualItems();
  useReportVisibleRows(items[0]?.index ?? 0, items[items.length - 1]?.index ?? 0, list.onVisibleRange);

  return (
    <div ref={scrollRef} className={classes.virtualScroller} data-testid="trade-scroller" style={{ padding: 8 }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} data-testid="trade-cards">
        {items.map((item) => {
          const trade = list.rowAt(item.index);
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              {trade ? (
                <TradeCard
                  trade={trade}
                  showAccount={showAccount}
                  timeZone={timeZone}
                  today={today}
                  hideImportTags={hideImportTags}
                  handlers={handlers}
                />
              ) : (
                <Skeleton height={120} radius="md" aria-label="Loading trade" />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
