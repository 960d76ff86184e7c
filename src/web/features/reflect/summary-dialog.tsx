import { List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toastError } from '../../lib/toast';
import { queryKeys } from '../../shared/api';
import { fetchPeriodSummary, type PeriodQuery } from './api';

/**
 * The Summary dialog: the period in a few lines, fresh from the server (so it counts the
 * trades and ratings saved a moment ago), every figure computed by the domain. A failure is the spec's Summary Error.
 */
export function SummaryDialog({ opened, onClose, query }: { opened: boolean; onClose: () => void; query: PeriodQuery }) {
  const { data, isPending, isError } = useQuery({
    queryKey: queryKeys.reflections.summary(query.period, query.offset, query.account),
    queryFn: () => fetchPeriodSummary(query),
    enabled: opened,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  useEffect(() => {
    if (!opened || !isError) return;
    toastError('Summary Error', 'There was a problem analyzing your trades. Please try again.');
    onClose();
  }, [opened, isError, onClose]);

  return (
    <Modal opened={opened && !isError} onClose={onClose} title={<Text fw={700}>Summary</Text>} size="lg" data-testid="summary-dialog">
      {isPending || !data ? (
        <Stack align="center" py="lg">
          <Loader size="sm" role="status" aria-label="Summarizing" />
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text fw={600} data-testid="summary-headline">
            {data.headline}
          </Text>
          <Text size="xs" c="dimmed">
            {data.from === data.to ? data.from : `${data.from} to ${data.to}`}
          </Text>
          <List size="sm" spacing={6} data-testid="summary-lines">
            {data.lines.map((line, i) => (
              <List.Item key={i}>{line}</List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Modal>
  );
}
