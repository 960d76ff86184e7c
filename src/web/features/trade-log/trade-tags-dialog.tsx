import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDay } from '../../../domain/dates';
import { useTradeFieldUpdate, type Trade } from '../../shared/api';
import { TagsField } from './tags-field';
import { describeError, toastError } from './toast';
import { useTradeOptions } from './use-trade-options';

/**
 * A trade's tags on their own, from its Tags cell or card. Saved optimistically: the row shows the new tags at once
 * and its old ones again if the server refuses, with 'Failed to update tags'.
 */
export function TradeTagsDialog({ trade, onClose }: { trade: Trade | null; onClose: () => void }) {
  const options = useTradeOptions();
  const update = useTradeFieldUpdate();
  const [tags, setTags] = useState<string[]>([]);
  useEffect(() => {
    if (trade) setTags([...trade.tags]);
  }, [trade]);

  const save = () => {
    if (!trade) return;
    const unchanged = tags.length === trade.tags.length && tags.every((t, i) => t === trade.tags[i]);
    onClose();
    if (unchanged) return;
    update.mutate({ id: trade.id, patch: { tags } }, { onError: (error) => toastError('Failed to update tags', describeError(error)) });
  };

  return (
    <Modal
      opened={trade !== null}
      onClose={onClose}
      title={trade ? `Tags of ${trade.symbol}, ${formatDay(trade.date, 'MMM d, yyyy')}` : 'Tags'}
      centered
      data-testid="trade-tags-dialog"
    >
      <Stack gap="md">
        {trade && trade.tags.length === 0 && tags.length === 0 && (
          <Text size="sm" c="dimmed">
            No tags yet.
          </Text>
        )}
        <TagsField value={tags} onChange={setTags} suggestions={options.tag} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} data-testid="trade-tags-save">
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
